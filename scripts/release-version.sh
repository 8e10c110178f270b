#!/usr/bin/env bash
# scripts/release-version.sh VERSION: sets the version of a release, or of the development that follows one, in every
# place that holds it, as docs/RELEASING.md describes:
#   - every POM (the parent's version and each module's parent reference), through versions-maven-plugin;
#   - project.build.outputTimestamp, to now, so that the release's jars carry its time;
#   - the gem: its version is the POM's, written into lib/sluice/version.rb by the build (0.1.0-SNAPSHOT becomes
#     the prerelease 0.1.0.SNAPSHOT), so it follows the POM with nothing to edit;
#   - for a release (no -SNAPSHOT): CHANGELOG.md's "## [Unreleased]" becomes "## [VERSION] - today" under a new,
#     empty Unreleased section, and the README's dependency snippets name VERSION.
# It changes files only; review them with git diff, then commit and tag (docs/RELEASING.md).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -ne 1 ] || ! [[ $1 =~ ^[0-9]+\.[0-9]+\.[0-9]+(-SNAPSHOT)?$ ]]; then
  echo "usage: scripts/release-version.sh MAJOR.MINOR.PATCH[-SNAPSHOT]   (e.g. 0.1.0, then 0.1.1-SNAPSHOT)" >&2
  exit 2
fi
version="$1"
release=""; [[ $version == *-SNAPSHOT ]] || release=yes

if [ -n "$release" ] && ! grep -q '^## \[Unreleased\]' CHANGELOG.md; then
  echo "release-version: CHANGELOG.md has no '## [Unreleased]' heading to turn into $version" >&2
  exit 1
fi
if [ -n "$release" ] && grep -q "^## \[$version\]" CHANGELOG.md; then
  echo "release-version: CHANGELOG.md already has a $version section" >&2
  exit 1
fi

./mvnw -B -q org.codehaus.mojo:versions-maven-plugin:2.18.0:set -DnewVersion="$version" \
  -DgenerateBackupPoms=false -DprocessAllModules=true -DupdateBuildOutputTimestampPolicy=never

now="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
sed -i -E "s|<project.build.outputTimestamp>[^<]*</project.build.outputTimestamp>|<project.build.outputTimestamp>$now</project.build.outputTimestamp>|" pom.xml

if [ -n "$release" ]; then
  today="${now%%T*}"
  sed -i "s|^## \[Unreleased\]$|## [Unreleased]\n\n## [$version] - $today|" CHANGELOG.md
  sed -i -E \
    -e "/^## Use it in your project/,/^## Using the library/{
          s|<version>[0-9]+\.[0-9]+\.[0-9]+</version>|<version>$version</version>|
          s|io\.sluice:sluice-core:[0-9]+\.[0-9]+\.[0-9]+|io.sluice:sluice-core:$version|
          s|\"sluice\", \"[0-9]+\.[0-9]+\.[0-9]+\"|\"sluice\", \"$version\"|
          s|sluice-[0-9]+\.[0-9]+\.[0-9]+([./-])|sluice-$version\1|g
          s|sluice-cli-[0-9]+\.[0-9]+\.[0-9]+\.jar|sluice-cli-$version.jar|g
          s|sluice-core-[0-9]+\.[0-9]+\.[0-9]+\.jar|sluice-core-$version.jar|g
        }" README.md
fi

grep -m1 -A0 "<version>" pom.xml | sed 's/^ */release-version: the POMs are now at /; s/<[^>]*>//g' >&2
echo "release-version: outputTimestamp $now; review with 'git diff', then see docs/RELEASING.md" >&2
