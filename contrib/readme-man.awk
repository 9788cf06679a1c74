# The manual page tokstream(1), or git-tokstream(1), from README.md: its
# first line names the program, its "## Commands" section up to "##
# tokenize" (every command, the filter, the output for programs) is the
# page.  What `make` runs, so that the page says what the README says:
#
#   awk -v name=tokstream -v version=V -f contrib/readme-man.awk README.md
#
# The Markdown the README uses, and only that: headings, paragraphs,
# lists (- and 1.), code blocks indented by four spaces, tables of two
# columns, `code`, **bold** and [links](...).

# text escaped for roff: backslashes, hyphens (options must paste as
# typed), and a line that would start with a control character
function roff(s) {
	gsub(/\\/, "\\e", s)
	gsub(/-/, "\\-", s)
	return s
}

function line_start(s) {
	if (s ~ /^[.']/)
		s = "\\&" s
	return s
}

# [text](target) as its text; a "[" whose "]" is not followed by "(" stays.
# A link across two lines: the "[" ends the first, "](target)" starts
# the second.
function unlink(t,    out, lb, rb, rp) {
	out = ""
	rb = index(t, "](")
	if (rb && (!(lb = index(t, "[")) || lb > rb) && (rp = index(substr(t, rb), ")")))
		t = substr(t, 1, rb - 1) substr(t, rb + rp)
	if ((lb = index(t, "[")) && !index(substr(t, lb), "]"))
		t = substr(t, 1, lb - 1) substr(t, lb + 1)
	while ((lb = index(t, "["))) {
		rb = index(substr(t, lb), "]")
		rp = index(substr(t, lb + rb), ")")
		if (!rb || substr(t, lb + rb, 1) != "(" || !rp) {
			out = out substr(t, 1, lb)
			t = substr(t, lb + 1)
			continue
		}
		out = out substr(t, 1, lb - 1) substr(t, lb + 1, rb - 2)
		t = substr(t, lb + rb + rp)
	}
	return out t
}

# inline Markdown: `code` in bold (\fP: back to the font around it),
# **bold**, which may hold code, [links](...) as their text
function inline(s,    out, n, parts, i, t, k, m, bits) {
	n = split(unlink(s), parts, "`")
	out = ""
	for (i = 1; i <= n; i++) {
		t = parts[i]
		if (i % 2 == 0) {
			out = out "\\fB" roff(t) "\\fP"
			continue
		}
		m = split(roff(t), bits, "\\*\\*")
		for (k = 1; k <= m; k++) {
			if (k > 1) {
				out = out (bold ? "\\fR" : "\\fB")
				bold = !bold
			}
			out = out bits[k]
		}
	}
	return out
}

function end_code() {
	if (in_code) {
		print ".fi"
		print ".RE"
		in_code = 0
	}
}

BEGIN {
	upper_name = toupper(name)
	command = name == "git-tokstream" ? "git tokstream" : "tokstream"
}

NR == 1 {
	title = $0
	sub(/^# [^:]*: */, "", title)
	printf ".TH %s 1 \"\" \"tokstream %s\" \"tokstream Manual\"\n", upper_name, version
	print ".SH NAME"
	print name " \\- " roff(title)
	print ".SH SYNOPSIS"
	print ".nf"
	print roff(command " [-C DEST] [--source SRC] <command> [<args>]")
	print roff("git fast-export ... | tokstream [FILTER-OPTIONS] | git fast-import")
	print roff(command " --version")
	print ".fi"
	next
}

/^## / {
	end_code()
	heading = substr($0, 4)
	if (heading == "Commands")
		on = 1
	else if (heading == "tokenize")
		on = 0
	if (on)
		printf ".SH \"%s\"\n", heading == "Commands" ? "DESCRIPTION" : toupper(heading)
	para = 0
	next
}

!on { next }

/^###+ / {
	end_code()
	sub(/^#+ /, "")
	printf ".SS \"%s\"\n", $0
	para = 0
	next
}

/^$/ {
	blank = 1
	next
}

# a code block: four spaces, after a blank line or another code line
/^    / && (in_code || blank) && !in_table {
	if (!in_code) {
		print ".PP"
		print ".RS 4"
		print ".nf"
		in_code = 1
	} else if (blank) {
		print ""
	}
	blank = 0
	print line_start(roff(substr($0, 5)))
	next
}

{
	end_code()
}

# a table: each row but the header and the rule as a tagged paragraph
/^\|/ {
	if (!in_table) {
		in_table = 1
		next
	}
	if ($0 ~ /^\|[-| ]*\|$/)
		next
	row = $0
	gsub(/\\\|/, "\001", row)
	n = split(row, cell, "|")
	print ".TP"
	c1 = cell[2]
	c2 = cell[3]
	gsub(/^ +| +$/, "", c1)
	gsub(/^ +| +$/, "", c2)
	gsub(/\001/, "|", c1)
	gsub(/\001/, "|", c2)
	print line_start(inline(c1))
	print line_start(inline(c2))
	blank = 0
	next
}

{
	in_table = 0
}

/^- / || /^[0-9]+\. / {
	bullet = $0 ~ /^- / ? "\\(bu" : substr($0, 1, index($0, " ") - 1)
	sub(/^(- |[0-9]+\. )/, "")
	printf ".IP %s 4\n", bullet
	print line_start(inline($0))
	blank = 0
	in_item = 1
	next
}

# the continuation of a list item, or a paragraph's next line
{
	if (blank || !para) {
		if (in_item && blank)
			in_item = 0
		if (!in_item)
			print ".PP"
		para = 1
	}
	blank = 0
	sub(/^ +/, "")
	print line_start(inline($0))
}
