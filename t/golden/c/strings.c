char *s = "hello, world";
char c = 'x', q = '\'', bs = '\\', nl = '\n', multi = 'ab';
wchar_t *w = L"wide"; wchar_t wc = L'w';
char8_t *u8s = u8"utf-8"; char16_t *u16 = u"utf-16"; char32_t *u32 = U"utf-32";
char16_t c16 = u'x'; char32_t c32 = U'x'; char u8c = u8'x';
"esc \"quoted\" \\" "adjacent" "concat" "naïve ☃";
"with a //comment inside" '/*' "/* not a comment */";
"continued \
line";
"unterminated string
int after_unterminated;
'unterminated char
int after_char;
x = ""; y = ''; z = "\\";
name"str" Lx"str" u8x"s" LL"s"
