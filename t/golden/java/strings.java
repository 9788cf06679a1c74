class Strings {
    String a = "plain", b = "", c = "esc \" \\ \n \t \u0041 \0";
    char d = 'x', e = '\'', f = '\\', g = '\u00e9', h = '"', i = '\n', j = 'é';
    String k = """
        A text block, "quoted" and ""doubly"" inside,
        an escaped \""" delimiter, \
        a line continuation and \s a space escape.
        """;
    String l = """
        ends on its last line""";
    String m = "unterminated
    String n = "after it";
}
