# Helpers of the tests of token blame; source it after test-lib.sh.

# token_authors FILE: "TOKEN AUTHOR" for every token of FILE (the
# original file), from `tokstream blame --porcelain` on stdin.
token_authors () {
	awk -v file="$1" '
		BEGIN { n = 0; while ((getline l < file) > 0) line[++n] = l }
		NF == 4 && $1 ~ /^[0-9]+$/ && $4 ~ /^[0-9a-f]+$/ && length($4) == 40 {
			id = $4; tok[++t] = substr(line[$1], $2, $3); who[t] = id; next
		}
		/^author / { if (!(id in author)) author[id] = substr($0, 8) }
		END { for (i = 1; i <= t; i++) print tok[i], author[who[i]] }
	'
}
