<?php
$a = 'single \' quote' . "double \" {$obj->arr["key"]} ${name} $x[1] \{";
$b = `ls -l {$dir}`;
$c = b"binary" . B'also';
$d = <<<EOT
  Heredoc {$x['}']} with $vars
  EOT;
$e = <<<"QUOTED"
body
QUOTED;
$f = <<<'NOW'
nowdoc $not {$expanded}
NOW;
foo(<<<EOT
    indented
      closer
    EOT, 2);
$g = <<<EOT
EOTX is not the end
EOT
;
$h = "multi
line";
