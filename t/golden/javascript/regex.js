x = a / b / c;
y = /re/g.test(s);
z = (a) / 2 + [1][0] / 3 + {}.x / 4;
w = i++ / 2 - j-- / 3;
return /^\/[a-z]+$/i;
typeof /x/;
if (ok) /y/.test(s);
while (m = /\d+/.exec(s)) f(/[/]/, /[\]/]/);
v = obj.return / 2 / obj.typeof;
u = a /* c */ / 2;
t = 1 // comment /
  / 2;
q = "str" / 3;
r = x =>/[a]/;
p = !/a/.test(s) && /b/ || c ? /d/ : /e/;
o = a /= 2;
n = 10 /
  5;
