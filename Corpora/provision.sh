#!/usr/bin/env bash
# Provision the corpora and wordlists of Corpora/manifest.tsv into Corpora/data/.
#
# For each entry: keep Corpora/data/<file> if its sha256 already matches; otherwise copy it
# from $SHARED_DATA/<file> when that exists (../shared/data beside the clone), or unpack
# $SHARED_DATA/<file>.gz when only a gzipped copy is there (the manifest then names the file as
# published upstream, so its url and sha256 are the upstream ones), otherwise download it from
# the entry's public url (a url of "-" marks development data that is never downloaded: it is
# skipped when ../shared does not have it). Every file is checked against the manifest's
# sha256 and a mismatch stops with a message naming the file and both digests.
# Usage: Corpora/provision.sh [NAME...]   (no names: every entry)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
manifest="$here/manifest.tsv"
data="$here/data"
shared="${SHARED_DATA:-$here/../../shared/data}"
want=" $* "
status=0
while IFS=$'\t' read -r name file sha license source url; do
  case "$name" in ''|'#'*|name) continue ;; esac
  if [ -n "${*:-}" ] && [[ "$want" != *" $name "* ]]; then continue; fi
  # A file stays inside data/ (and the shared folder): relative, no '..' component.
  case "/$file/" in
    //*|*/../*)
      echo "provision: $name: file '$file' must be a relative path inside $data without '..'; fix $manifest" >&2
      status=1; continue ;;
  esac
  dest="$data/$file"
  if [ -f "$dest" ] && [ "$(sha256sum "$dest" | cut -d' ' -f1)" = "$sha" ]; then
    continue
  fi
  mkdir -p "$(dirname "$dest")"
  tmp="$dest.partial"
  if [ -f "$shared/$file" ]; then
    cp "$shared/$file" "$tmp"
    from="$shared/$file"
  elif [ -f "$shared/$file.gz" ]; then
    gzip -dc "$shared/$file.gz" >"$tmp"
    from="$shared/$file.gz (unpacked)"
  elif [ "$url" = "-" ]; then
    # Development data with no public download (real swipes): only from ../shared; the
    # benchmarks and integration tests that need it say so and skip.
    echo "provision: $name: not in $shared and not downloadable; skipped (development data only)" >&2
    continue
  else
    echo "provision: $name: downloading $url" >&2
    if ! curl -fsSL --retry 3 -o "$tmp" "$url"; then
      echo "provision: $name: download failed from $url; check the network or put the file at $shared/$file" >&2
      rm -f "$tmp"; status=1; continue
    fi
    from="$url"
  fi
  got=$(sha256sum "$tmp" | cut -d' ' -f1)
  if [ "$got" != "$sha" ]; then
    echo "provision: $name: sha256 mismatch for $from: got $got, manifest says $sha; the source changed or the download is damaged; fix the source or the manifest" >&2
    rm -f "$tmp"; status=1; continue
  fi
  mv "$tmp" "$dest"
  echo "provision: $name: $dest (from $from)" >&2
done < "$manifest"
exit $status
