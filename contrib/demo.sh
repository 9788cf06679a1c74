#!/bin/sh
# make demo: convert this project's own history into a token repository and
# show, for one of its files, who owns its lines beside who owns its tokens.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dest=$top/demo/tokens.git
file=${DEMO_FILE:-fastexport.c}
tokstream=$top/tokstream

if [ "$(git -C "$top" rev-parse --is-shallow-repository)" = true ]; then
	echo "demo: this clone is shallow; run 'git fetch --unshallow' first" >&2
	exit 1
fi
mkdir -p "$top/demo"
echo "== tokstream convert --stats $top $dest"
"$tokstream" convert --stats "$top" "$dest"

head=$(git -C "$top" rev-parse HEAD)
tok=$("$tokstream" map -C "$dest" "$head")
echo
echo "== HEAD $head is token commit $tok"

echo
echo "== tokstream blame --line $file: git blame's commit per line, then the token"
echo "== blame: the line's largest contributor (+N others), every token coloured by its commit"
"$tokstream" blame -C "$dest" --line --no-pager --color=${DEMO_COLOR:-auto} "$file" | sed -n '1,40p'
echo "   ..."
echo
echo "== who owns $file, by commit of the source: lines, then tokens"
owners() {
	awk 'length($1) == 40 && $2 ~ /^[0-9]+$/ {n[$1]++} END {for (c in n) print c, n[c]}'
}
git -C "$top" blame --porcelain "$head" -- "$file" | owners | sort > "$top/demo/lines.txt"
# tokstream blame --porcelain: "LINE COL LENGTH COMMIT" for each token
"$tokstream" blame -C "$dest" --porcelain "$file" |
awk 'NF == 4 && $1 ~ /^[0-9]+$/ && length($4) == 40 {n[$4]++} END {for (c in n) print c, n[c]}' |
sort > "$top/demo/tokens.txt"
printf '%-12s %8s %8s  %s\n' commit lines tokens summary
join -a1 -a2 -e0 -o 0,1.2,2.2 "$top/demo/lines.txt" "$top/demo/tokens.txt" |
while read -r id l t; do
	printf '%-12s %8s %8s  %s\n' "$(echo "$id" | cut -c1-10)" "$l" "$t" \
		"$(git -C "$top" log -1 --format=%s "$id" | cut -c1-50)"
done

echo
echo "== commit sizes in tokens of $file: git's default diff of the views, then the engine's"
# git diff's cost cut-off misaligns long views of repeating tokens; the
# engine's diff (report's commits.tsv) does not
"$tokstream" report -C "$dest" "$top/demo/report" "$head" "$file" >/dev/null
printf '%-12s %16s %16s  %s\n' commit "git diff +/-" "tokstream +/-" summary
tail -n +2 "$top/demo/report/commits.tsv" | sort -t "$(printf '\t')" -k5,5nr | head -n 8 |
while IFS="$(printf '\t')" read -r orig tok added removed changed; do
	git_diff=$(git -C "$dest" diff-tree -r --root --no-commit-id --numstat "$tok" -- "$file" |
		awk '{ printf "+%d -%d", $1, $2 }')
	printf '%-12s %16s %16s  %s\n' "$(echo "$orig" | cut -c1-10)" "$git_diff" "+$added -$removed" \
		"$(git -C "$top" log -1 --format=%s "$orig" | cut -c1-40)"
done
echo "(the whole report: $top/demo/report/index.html)"
