/**
 * Javadoc for the class.
 *
 * @author someone
 */
package demo; // a line comment
/* a block
   comment */ import java.util.*;
/***/ class C /**/ {
    int x; //no space
    int y; /* inline */ int z;
    // a // comment with /* inside
    String u = "\u0022"; // escapes stay as written in literals
    int \u0061bc;   // but an escaped identifier is split: javac keeps it whole
    String notComment = "// not a comment /* nor this */";
}
/* unterminated block comment
   runs to the end of the file
