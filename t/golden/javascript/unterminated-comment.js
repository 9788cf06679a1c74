x = 1;
/* block comment to the end
  y = 2;
