<?php
/*
 * Helper of t/agree/php.sh: PHP's own tokenizer, token_get_all(), turned
 * into the token list tokstream's PHP lexer should give.  Reads file names
 * (one a line) on stdin; for each writes "\x01FILE name" and then one token
 * a line, LF and CR inside a token written as \n and \r as the view writes
 * them.  The adjustments, each one a documented choice of lexers/php.c:
 *   - whitespace tokens are dropped, and the whitespace PHP attaches to the
 *     end of an open tag, a close tag or a comment is trimmed;
 *   - a string with interpolation ('"' T_ENCAPSED_AND_WHITESPACE T_VARIABLE
 *     ... '"'), a backtick string and a heredoc or nowdoc (T_START_HEREDOC
 *     ... T_END_HEREDOC) are reassembled into one token, from the opening
 *     quote to the closing one, holes {$x["k"]} and nested strings included;
 *   - '$' tokens directly before a T_VARIABLE are joined to it: $$name;
 *   - T_INLINE_HTML is split as the text lexer splits prose: runs of
 *     [A-Za-z0-9_] and bytes >= 0x80, every other non-space byte alone.
 */
function esc($t) { return str_replace(["\n", "\r"], ['\n', '\r'], $t); }

$ws = " \t\n\r\v\f";
while (($path = fgets(STDIN)) !== false) {
	$path = rtrim($path, "\n");
	$src = @file_get_contents($path);
	if ($src === false)
		continue;
	echo "\x01FILE $path\n";
	$pos = 0;
	$stack = [];   /* '"', '`', 'H' (heredoc) or '{' (a hole) */
	$start = 0;
	$pending_dollars = '';
	foreach (token_get_all($src) as $t) {
		$id = is_array($t) ? $t[0] : null;
		$text = is_array($t) ? $t[1] : $t;
		$b = $pos;
		$pos += strlen($text);
		$opener = $text === '"' || $text === '`' ? $text : ($id === T_START_HEREDOC ? 'H' : null);
		if ($stack) {
			$top = end($stack);
			if ($top !== '{') {
				if (($top === 'H' && $id === T_END_HEREDOC) ||
				    ($top !== 'H' && $text === $top && $id === null)) {
					array_pop($stack);
					if (!$stack)
						echo esc(substr($src, $start, $pos - $start)), "\n";
				} elseif ($id === T_CURLY_OPEN || $id === T_DOLLAR_OPEN_CURLY_BRACES) {
					$stack[] = '{';
				}
			} else {
				if ($text === '{' || $id === T_CURLY_OPEN || $id === T_DOLLAR_OPEN_CURLY_BRACES)
					$stack[] = '{';
				elseif ($text === '}')
					array_pop($stack);
				elseif ($opener !== null)
					$stack[] = $opener;
			}
			continue;
		}
		if ($opener !== null) {
			$stack = [$opener];
			$start = $b;
			continue;
		}
		if ($id === T_WHITESPACE)
			continue;
		if ($id === T_VARIABLE && $pending_dollars !== '') {
			$text = $pending_dollars . $text;   /* $$name is one token */
			$pending_dollars = '';
		}
		if ($pending_dollars !== '') {
			echo str_repeat("$\n", strlen($pending_dollars));
			$pending_dollars = '';
		}
		if ($text === '$' && $id === null && $pos < strlen($src) && $src[$pos] === '$') {
			$pending_dollars .= '$';
			continue;
		}
		if ($id === T_INLINE_HTML) {
			preg_match_all('/[A-Za-z0-9_\x80-\xff]+|[^ \t\n\r\v\f]/', $text, $m);
			foreach ($m[0] as $w)
				echo esc($w), "\n";
			continue;
		}
		if ($id === T_OPEN_TAG || $id === T_CLOSE_TAG || $id === T_COMMENT || $id === T_DOC_COMMENT)
			$text = rtrim($text, $ws);
		if ($text !== '')
			echo esc($text), "\n";
	}
	if ($stack)   /* unterminated at the end of the file */
		echo esc(rtrim(substr($src, $start), $ws)), "\n";
}
