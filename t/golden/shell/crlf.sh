echo ${a:-${b:-"x}"}} # crlf comment
cat <<EOF | tr a b
body line
EOF
ls \
  -l
