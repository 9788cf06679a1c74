class W {
    int a; // crlf
    String t = """
        text
        """;
}
