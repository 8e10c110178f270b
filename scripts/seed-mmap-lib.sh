# Sourced by scripts/seed-mmap-harness.sh, seed-mmap-passes.sh and seed-mmap-carryover.sh: what they need before running
# the JRuby mmap post's code. seed_mmap_setup CHECKOUT DIR NAME sets
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

# Exits with a message unless CHECKOUT holds the post's harness and its three Java sources.
seed_mmap_check_checkout() {
  local f
  for f in mmap_test.rb src/main/java/com/colinsurprenant/MmapFile.java \
           src/main/java/com/colinsurprenant/MmapFileExtLibrary.java src/main/java/MmapFileExtService.java; do
    [ -f "$1/$f" ] || { echo "$1 is not a jruby-mmap-benchmark checkout: no $f" >&2; exit 2; }
  done
}

# Exits with a message naming OPTION unless this user may drop the page cache and compact memory: checked before any
# row runs, since the kernel decides.
seed_mmap_check_drop() {
  [ -w /proc/sys/vm/drop_caches ] && [ -w /proc/sys/vm/compact_memory ] && return 0
  echo "$1 writes /proc/sys/vm/drop_caches and compact_memory, which this user may not (run as root)" >&2
  exit 2
}

# Drops the page cache (clean pages only: sync first) and compacts free memory, so that the next JVM starts from
# memory no JVM before it shaped.
seed_mmap_drop() {
  echo 3 > /proc/sys/vm/drop_caches
  echo 1 > /proc/sys/vm/compact_memory
}
