# Sourced by scripts/seed-mmap-harness.sh and scripts/seed-mmap-passes.sh: what both need before running the JRuby
# mmap post's code. seed_mmap_setup CHECKOUT DIR NAME sets
#   jdk    a JDK 22+ with javac: SLUICE_JAVA_HOME, JAVA_HOME, else the newest under /usr/lib/jvm (as ./sluice looks)
#   jruby  the jruby-complete jar the build fetched
#   cp     the class path of a JRuby with the sluice gem's jars
#   work   a new work directory under DIR (removed on exit) holding target/classes: the post's Java sources compiled
#          there, where its mmap_test.rb looks for them
# and exits with a message when there is no such JDK.
seed_mmap_setup() {
  local checkout=$1 dir=$2 name=$3 here c v best=0
  here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  jdk=""
  for c in "${SLUICE_JAVA_HOME:-}" "${JAVA_HOME:-}" /usr/lib/jvm/*; do
    [ -n "$c" ] && [ -x "$c/bin/javac" ] && [ -f "$c/release" ] || continue
    v=$(sed -n 's/^JAVA_VERSION="\(1\.\)\{0,1\}\([0-9]*\).*/\2/p' "$c/release")
    [ -n "$v" ] && [ "$v" -ge 22 ] && [ "$v" -gt "$best" ] || continue
    jdk=$c best=$v
    [ "$c" = "${SLUICE_JAVA_HOME:-}" ] || [ "$c" = "${JAVA_HOME:-}" ] && break
  done
  [ -n "$jdk" ] || { echo "no JDK 22 or newer found (set SLUICE_JAVA_HOME)" >&2; exit 3; }

  # ./sluice builds the project when its sources changed; the jars and jruby-complete are then in sluice-cli/target.
  "$here/sluice" --version >/dev/null
  local lib="$here/sluice-cli/target/lib"
  jruby=$(ls "$here"/sluice-cli/target/jruby/jruby-complete-*.jar | head -1)
  cp="$jruby:$lib/sluice-jruby.jar:$lib/sluice-core.jar:$lib/sluice-db.jar:$lib/sluice-maf.jar:$lib/h2-mvstore.jar"

  mkdir -p "$dir"
  work=$(mktemp -d "$dir/$name.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  mkdir -p "$work/target/classes"
  # The post's build (its Rakefile's javac task), with javac itself; its notes about deprecated JRuby APIs are not ours.
  "$jdk/bin/javac" -nowarn -d "$work/target/classes" -cp "$jruby" \
    "$checkout"/src/main/java/MmapFileExtService.java "$checkout"/src/main/java/com/colinsurprenant/*.java 2>&1 |
    { grep -v '^Note:' >&2 || true; }
}
