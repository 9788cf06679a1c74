int x = 1;
auto s = R"(never
closed
