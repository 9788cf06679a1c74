#!/usr/bin/awk -f
# Count tokens per file; print the top ones.
BEGIN { FS = "\t"; OFS = ":" }
$1 !~ /^#/ && NF >= 2 {
    count[$2]++          # per-token total
    total += $NF ^ 2
    sub(/\"/, "", $3)
}
/^--/ { next }
END {
    for (t in count) if (count[t] > 1) printf "%s %d\n", t, count[t] | "sort -rn"
    print "total", total ** 0.5, total / NR / 2, (total) / 2, 1e-3, (total != 0 || total == 0)
}
