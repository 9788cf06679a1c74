// line comment
int a; // trailing comment   with   spaces   
/* block */ int b; /**/ int c; /***/ /* a * b ** c */
/* multi-line
 *   comment
 */
int d; /* not /* nested */ int e;
// continued \
   line comment
int f;
/*/ still a comment /*/ int g;
x = a //**/ b
;
x = a /
b;
x = a / /* c */ b; /*	tab	*/ /* don't */ // it's "fine"
