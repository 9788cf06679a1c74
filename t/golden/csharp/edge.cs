var s = $"outer {$"inner {x}"} done";
var t = $"hole {a +
b}";
var u = $"a{{b}}c" + $"{'}'}" + $"{M("}")}ok";
var w = @$"verbatim hole {M(@"x")}
still";
$ x \ y
var z = @"unterminated verbatim runs to the end
of the file
