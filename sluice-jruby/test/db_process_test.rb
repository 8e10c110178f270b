# frozen_string_literal: true

require "test_helper"
require "sluice/db"
require "open3"

# Sluice::DB files shared with, and killed in, other JRuby processes.
class SluiceDBProcessTest < Minitest::Test
  include SluiceTest::TempDir
  DB = Sluice::DB

  # Crash trials run by the suite; SLUICE_DB_CRASH_TRIALS=20 runs more by hand.
  TRIALS = Integer(ENV.fetch("SLUICE_DB_CRASH_TRIALS", "2"))

  # A JRuby child from the same JVM installation and jar, loading Sluice from where this process loaded it.
  def spawn_ruby(script)
    java_bin = File.join(ENV_JAVA["java.home"], "bin", "java")
    jar = java.nio.file.Paths.get(java.lang.Class.forName("org.jruby.Ruby").getProtectionDomain.getCodeSource
                                                           .getLocation.toURI).toString
    lib = File.dirname($LOADED_FEATURES.grep(%r{/sluice\.rb\z}).first)
    Open3.popen2(java_bin, "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", jar, "org.jruby.Main",
                 "-I", lib, "-e", script)
  end

  def test_a_file_open_in_another_process_is_refused_with_a_clear_message
    file = path("shared.kct")
    stdin, out, thread = spawn_ruby(<<~RUBY)
      require "sluice/db"
      db = Sluice::DB.new
      db.open(#{file.dump}, Sluice::DB::OWRITER | Sluice::DB::OCREATE) or abort db.error.to_s
      db["held"] = "1"
      db.synchronize
      puts "open"
      $stdout.flush
      $stdin.read
    RUBY
    assert_equal "open\n", out.gets
    db = DB.new
    refute db.open(file, DB::OWRITER)
    assert_includes db.error.message, "locked by another process"
    refute db.open(file, DB::OREADER), "readers wait for no writer either"
    strict = DB.new(DB::GEXCEPTIONAL)
    assert_raises(DB::Error::XSYSTEM) { strict.open(file) }
    stdin.close
    assert thread.value.success?
    assert db.open(file, DB::OREADER), "free once the other process has gone"
    assert_equal "1", db["held"]
    db.close
  ensure
    stdin&.close unless stdin&.closed?
  end

  def test_every_transaction_committed_before_kill_9_is_there
    rng = Random.new(11)
    TRIALS.times do |trial|
      file = path("crash-#{trial}.kct")
      stdin, out, thread = spawn_ruby(<<~RUBY)
        require "sluice/db"
        db = Sluice::DB.new
        db.open(#{file.dump}, Sluice::DB::OWRITER | Sluice::DB::OCREATE) or abort db.error.to_s
        t = 0
        loop do
          db.transaction { 10.times { |i| db.set(format("%08d:%d", t, i), "v" * 50) }; true }
          puts t
          $stdout.flush
          t += 1
        end
      RUBY
      target = 100 + rng.rand(1000)
      last = -1
      while (line = out.gets)
        last = Integer(line)
        break if last >= target
      end
      Process.kill(:KILL, thread.pid)
      # Commits acknowledged between the target and the kill count too.
      while (line = out.gets)
        last = Integer(line)
      end
      refute thread.value.success?
      stdin.close
      assert_operator last, :>=, 0, "the child committed nothing"
      DB.process(file, DB::OREADER) do |db|
        (0..last).each do |t|
          10.times do |i|
            refute_nil db.get(format("%08d:%d", t, i)), "trial #{trial}: transaction #{t} lost (last #{last})"
          end
        end
        assert_equal 0, db.count % 10, "trial #{trial}: a transaction kept in part"
      end
    end
  end
end
