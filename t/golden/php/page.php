<!DOCTYPE html>
<html lang="en"><body class="x-y">
<?php
// line comment ?> <p>back in HTML</p>
<?php # hash comment
/* block
   comment */
/** doc */
#[Attribute(Attribute::TARGET_CLASS)]
namespace App\Models;
use \Foo\Bar as Baz;
$x = namespace\helper($$name, $this?->prop, Foo::BAR);
?>
<p><?= $title ?></p>
<? echo 1; ?>
<?xml version="1.0"?>
</body></html>
