# frozen_string_literal: true

require "test_helper"

class SluiceEnginesTest < Minitest::Test
  def test_every_engine_is_listed_with_its_state
    engines = Sluice.engines
    assert_equal %i[classic channel mmap io_uring auto], engines.map(&:name)
    engines.each do |e|
      refute_empty e.description
      assert_equal e.unavailable_reason.nil?, e.available?
      refute_empty e.unavailable_reason unless e.available?
    end
    assert engines.find { |e| e.name == :channel }.available?
  end

  def test_native_access_is_reported
    # java -jar jruby-complete.jar grants it through the jar's manifest; io_uring needs it.
    assert_includes [true, false], Sluice.native_access?
    io_uring = Sluice.engines.find { |e| e.name == :io_uring }
    assert_includes io_uring.unavailable_reason, "native access" unless Sluice.native_access?
  end

  def test_version
    assert_match(/\A\d+\.\d+\.\d+/, Sluice::VERSION)
  end
end
