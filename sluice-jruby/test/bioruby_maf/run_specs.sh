#!/bin/sh
# Runs bioruby-maf's own rspec suite twice, under MRI on Kyoto Cabinet (ruby-kyotocabinet) and under JRuby on
# Sluice::DB (kyotocabinet_shim/ first on the load path; bioruby-maf's files unchanged), and shows the examples that
# fail under one only. Its specs were written for rspec 2.10; rspec 3 from Debian's ruby-rspec runs them, and the
# examples that fail for that alone fail under both.
#
#   sluice-jruby/test/bioruby_maf/run_specs.sh BIORUBY_MAF_CHECKOUT [SLUICE_GEM_LIB] [JRUBY_COMPLETE_JAR]
#
# SLUICE_GEM_LIB defaults to sluice-jruby/target/gem/lib (made by ./mvnw package -pl sluice-jruby -am); java must be
# 22 or newer (JAVA, or java on PATH). Output: OUT (default /tmp/bioruby-maf-specs)/{mri,jruby}.txt.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
checkout=$(cd "$1" && pwd)
gem_lib=${2:-$here/../../target/gem/lib}
jar=${3:-$(ls ~/.m2/repository/org/jruby/jruby-complete/*/jruby-complete-*.jar | tail -n 1)}
out=${OUT:-/tmp/bioruby-maf-specs}
mkdir -p "$out"
rspec_dirs=""
for g in rspec rspec-core rspec-expectations rspec-mocks rspec-support; do
  d=$(ls -d /usr/share/rubygems-integration/all/gems/$g-[0-9]* | tail -n 1)
  rspec_dirs="$rspec_dirs -I $d/lib"
done
cd "$checkout"
ruby -I "$here/stand_ins" -I lib -I spec $rspec_dirs -e 'require "rspec/core"; exit RSpec::Core::Runner.run(ARGV)' \
  -- spec > "$out/mri.txt" 2>&1 || true
"${JAVA:-java}" -jar "$jar" -I "$here/kyotocabinet_shim" -I "$here/stand_ins" -I "$gem_lib" -I lib -I spec \
  $rspec_dirs -e 'require "rspec/core"; exit RSpec::Core::Runner.run(ARGV)' -- spec > "$out/jruby.txt" 2>&1 || true
echo "MRI, Kyoto Cabinet: $(grep -E '^[0-9]+ examples' "$out/mri.txt")"
echo "JRuby, Sluice::DB:  $(grep -E '^[0-9]+ examples' "$out/jruby.txt")"
grep '^rspec ' "$out/mri.txt" | sort > "$out/mri.failed"
grep '^rspec ' "$out/jruby.txt" | sort > "$out/jruby.failed"
echo "Failing under JRuby on Sluice::DB only:"
comm -13 "$out/mri.failed" "$out/jruby.failed"
echo "Failing under MRI on Kyoto Cabinet only:"
comm -23 "$out/mri.failed" "$out/jruby.failed"
