# frozen_string_literal: true

require_relative "test_helper"
require "stringio"

# The gem page's first example (docs/jruby.md) is what a user copies first, so it must run as written, in an empty
# directory, and do what its comments say.
class DocsExampleTest < Minitest::Test
  include SluiceTest::TempDir

  DOC = File.expand_path("../../docs/jruby.md", __dir__)

  def test_the_gem_pages_first_example_runs_as_written
    skip "no docs/jruby.md beside this gem's sources" unless File.exist?(DOC)
    code = File.read(DOC)[/```ruby\n(.*?)```/m, 1]
    refute_nil code, "no Ruby example in #{DOC}"
    out = Dir.chdir(@dir) { run_quietly(code) }
    assert_equal 65_536 + "one more record\n".bytesize, File.size(path("data.bin"))
    assert_equal "one more record\n", File.binread(path("data.bin"), 16, 65_536)
    assert_equal "LOG1\n" + "entry\n" * 1000 + "END\n", File.binread(path("log.bin"))
    framed = File.binread(path("framed.bin"))
    assert_equal [6000].pack("Q>") + "entry\n" * 1000, framed, "the length filled in, the body kept, nothing after"
    assert_equal "Manifest-Version: 1.0\n", File.binread(path("out/META-INF/MANIFEST.MF"))
    assert_includes out, "META-INF/MANIFEST.MF 22"
    assert_match(/^CHANNEL: yes$/i, out)
  end

  private

  # Runs code at top level in a binding of its own (its locals stay there), returning what it printed.
  def run_quietly(code)
    saved = $stdout
    $stdout = StringIO.new
    Object.new.instance_eval { binding }.eval(code, DOC)
    $stdout.string
  ensure
    $stdout = saved
  end
end
