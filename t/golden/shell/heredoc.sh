cat <<EOF; echo after
body $x
  EOF not the end
EOF
cat <<-END
	tab stripped
	END
cat <<'Q' <<"R" <<\S
q body
Q
r body
R
s body
S
cat <<E"O"F x
mixed
EOF
tr a b <<<"here string"
x=$(cat <<IN
inside
IN
)
echo "multi
line" <<EOF
after the string
EOF
cat <<UNTERMINATED
runs to the end
