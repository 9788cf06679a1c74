// Strings of every kind.
using System;
/// <summary>Doc comment.</summary>
class @class {
    /* block
       comment */
    string a = "esc \" quote", b = @"C:\dir\""quoted""
second line";
    string c = $"x={x,5:N2} {{literal}} {d["key"]} {(ok ? "y" : "n")}";
    string d = $@"verbatim {x}
{y}"" end", e = @$"also {z}";
    string f = """
        raw "quoted" ""two"" text
        """;
    string g = """"four """ inside"""";
    string h = $$"""{{x}} and {y}""";
    char c1 = 'a', c2 = '\'', c3 = '\u0041';
    string bad = "unterminated
    int after;
}
