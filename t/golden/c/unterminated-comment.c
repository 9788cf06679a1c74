int x; /* never closed
 more text
