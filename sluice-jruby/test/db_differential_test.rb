# frozen_string_literal: true

require "test_helper"
require "sluice/kyotocabinet"
require_relative "kc_differential"

# Sluice::DB against Kyoto Cabinet itself: kc_differential.rb's seeded random call sequences run under MRI with the
# real kyotocabinet binding and here under JRuby with sluice/kyotocabinet, and the two transcripts must be the same
# line for line. Skipped, saying why, where MRI or its kyotocabinet binding is not installed (Debian: apt-get install
# ruby ruby-kyotocabinet). SLUICE_KC_SEEDS=1,2,3 and SLUICE_KC_STEPS=2000 choose other runs by hand.
class SluiceDBDifferentialTest < Minitest::Test
  include SluiceTest::TempDir

  SCRIPT = File.join(__dir__, "kc_differential.rb")
  SEEDS = ENV.fetch("SLUICE_KC_SEEDS", "1,2,3,4,5,6,7,8").split(",").map { |s| Integer(s) }
  STEPS = Integer(ENV.fetch("SLUICE_KC_STEPS", "400"))

  # Runs +args+ with the 'ruby' on the PATH as a process of its own, through Java: JRuby runs a command named ruby
  # in itself. [exit code, stdout, stderr], without this JRuby's gem and load settings.
  def self.run_mri(*args)
    pb = java.lang.ProcessBuilder.new(["ruby", *args])
    %w[GEM_HOME GEM_PATH RUBYOPT RUBYLIB JRUBY_OPTS].each { |name| pb.environment.remove(name) }
    process = pb.start
    err = Thread.new { process.getErrorStream.to_io.read }
    out = process.getInputStream.to_io.read
    [process.waitFor, out, err.value]
  end

  # The MRI that has the binding, or the reason there is none.
  def self.mri
    @mri ||= begin
      code, out, err = run_mri("-e", 'print RUBY_ENGINE, " "; require "kyotocabinet"; print KyotoCabinet::VERSION')
      if code.zero? && out.start_with?("ruby ")
        [:ok, out]
      else
        [:missing, "MRI with the kyotocabinet binding did not start (ruby -e 'require \"kyotocabinet\"' said: " \
                   "#{(err + out).strip.lines.last&.strip}; exit #{code})"]
      end
    rescue java.io.IOException => e
      [:missing, "no MRI 'ruby' on the PATH (#{e.message})"]
    end
  end

  def test_random_call_sequences_give_the_same_transcript_as_kyoto_cabinet
    state, detail = self.class.mri
    skip "needs Kyoto Cabinet under MRI to compare with: #{detail}; apt-get install ruby ruby-kyotocabinet" \
      unless state == :ok

    SEEDS.each do |seed|
      kc_dir = path("kc-#{seed}")
      sluice_dir = path("sluice-#{seed}")
      Dir.mkdir(kc_dir)
      Dir.mkdir(sluice_dir)
      code, out, err = self.class.run_mri(SCRIPT, "kyotocabinet", seed.to_s, STEPS.to_s, kc_dir)
      assert code.zero?, "MRI's run of seed #{seed} failed: #{err}"
      expected = out.lines.map { |l| l.chomp.gsub(kc_dir, "DIR") }
      actual = KCDifferential.transcript(KyotoCabinet, seed, STEPS, sluice_dir).map { |l| l.gsub(sluice_dir, "DIR") }
      at = (0...[expected.size, actual.size].max).find { |i| expected[i] != actual[i] }
      next unless at

      context = (([at - 3, 0].max)...at).map { |i| "    #{expected[i]}" }.join("\n")
      step = (expected[at] || actual[at]).to_s.split(" ", 2).first
      flunk "seed #{seed}, step #{step}: first difference at transcript line #{at + 1}\n" \
            "  before it:\n#{context}\n" \
            "  Kyoto Cabinet: #{expected[at].inspect}\n" \
            "  Sluice::DB:    #{actual[at].inspect}\n" \
            "(run it alone: SLUICE_KC_SEEDS=#{seed})"
    end
  end
end
