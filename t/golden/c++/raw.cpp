const char *a = R"(plain raw)";
const char *b = R"delim(with )" inside)delim";
const char *c = R"x(spans
two lines)x";
auto d = u8R"(utf8 raw)"; auto e = LR"(wide)"; auto f = uR"(u16)"; auto g = UR"(u32)";
auto h = R"(backslash \n not an escape, "quotes" and // no comment)";
auto i = R"--(a )- fake close )-- real)--";
auto j = R"()"; auto k = R"(
)";
int R = FOOR"x" + LR'x';
int after;
