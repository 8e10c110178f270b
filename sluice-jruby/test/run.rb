# frozen_string_literal: true

# Runs the whole suite in this one JRuby (its start-up is the slow part): ruby test/run.rb [minitest options].
# With SLUICE_EXPECT_GEM_HOME set, first checks that 'sluice' was loaded from the gem installed there.

$LOAD_PATH.unshift(__dir__)
require "test_helper"

if (home = ENV["SLUICE_EXPECT_GEM_HOME"])
  spec = Gem.loaded_specs["sluice"]
  loaded = $LOADED_FEATURES.grep(%r{/sluice\.rb\z}).first
  unless spec && spec.full_gem_path.start_with?(File.realpath(home)) && loaded&.start_with?(spec.full_gem_path)
    abort "sluice was not loaded from the gem installed in #{home}: spec #{spec&.full_gem_path.inspect}, " \
          "file #{loaded.inspect}"
  end
  puts "sluice #{Sluice::VERSION} loaded from #{spec.full_gem_path}"
end

Dir[File.join(__dir__, "*_test.rb")].sort.each { |f| require f }
exit Minitest.run(ARGV)
