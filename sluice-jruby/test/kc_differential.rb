# frozen_string_literal: true

# Seeded random sequences of Kyoto Cabinet API calls, printed as a canonical transcript: one line per call with its
# arguments, its result, the error code the database then holds, and the class of any exception. The same script
# runs under MRI against the real Kyoto Cabinet and under JRuby against Sluice::DB (db_differential_test.rb compares
# the two):
#
#   ruby kc_differential.rb kyotocabinet SEED STEPS DIR       # MRI, require "kyotocabinet"
#   jruby kc_differential.rb sluice/kyotocabinet SEED STEPS DIR
#
# What cannot be the same is left out rather than masked: file sizes (other formats), status fields other than the
# count, and the text of error messages (the codes are compared).
require "zlib"

module KCDifferential
  # A small generator of its own, so that both Rubies draw the same numbers whatever their Random does.
  class Rng
    def initialize(seed)
      @s = (seed * 0x9E3779B97F4A7C15 + 1) & 0xFFFF_FFFF_FFFF_FFFF
    end

    # 0 ... n
    def int(n)
      @s ^= (@s << 13) & 0xFFFF_FFFF_FFFF_FFFF
      @s ^= @s >> 7
      @s ^= (@s << 17) & 0xFFFF_FFFF_FFFF_FFFF
      (@s >> 11) % n
    end

    def pick(list)
      list[int(list.size)]
    end

    def chance(percent)
      int(100) < percent
    end
  end

  # Byte values that sort differently signed and unsigned, and an ASCII letter; keys of up to 3 of them collide often.
  BYTES = ["\x00", "\x01", "\x7f", "\x80", "\xff", "a"].map(&:b).freeze

  # One seed's run.
  class Run
    def initialize(kc, seed, steps, dir)
      @kc = kc
      @rng = Rng.new(seed)
      @steps = steps
      @dir = dir
      @file = File.join(dir, "diff.kct")
      @lines = []
      @db = nil
      @cursor = nil
      @in_tx = false
    end

    def db_class
      @kc::DB
    end

    def key
      Array.new(@rng.int(4)) { @rng.pick(BYTES) }.join.b
    end

    def value
      @rng.chance(10) ? ("v" * (@rng.int(300) + 1)).b : Array.new(@rng.int(5)) { @rng.pick(BYTES) }.join.b
    end

    # The canonical text of a result.
    def canon(x)
      case x
      when String then x.b.inspect
      when Array then "[#{x.map { |e| canon(e) }.join(', ')}]"
      when Hash then "{#{x.sort_by { |k, _| k.to_s.b }.map { |k, v| "#{canon(k)}=>#{canon(v)}" }.join(', ')}}"
      when Float then x.nan? ? "NaN" : format("%.6f", x)
      when nil, true, false, Integer then x.inspect
      else
        if x.is_a?(@kc::Error) then "Error(#{x.code})"
        elsif x.is_a?(@kc::Cursor) then "cursor"
        else x.class.name.split("::").last
        end
      end
    end

    # The last two parts of an exception's class name: Error::XNOREC for Sluice's and Kyoto Cabinet's alike.
    def exception_name(e)
      e.class.name.split("::").last(2).join("::")
    end

    def record(step, op, args)
      result = begin
        canon(yield)
      rescue StandardError => e
        "raise #{exception_name(e)}"
      end
      code = @db ? @db.error.code : "-"
      @lines << "#{step} #{op}(#{args.map { |a| canon(a) }.join(', ')}) => #{result} err=#{code} #{state}"
    end

    # What the database holds, as a checksum of its records (read with each, which records no error), so that a
    # write that differs shows at its step and not at the next read.
    def state
      return "" unless @db

      records = []
      @db.each { |k, v| records << k << v }
      "crc=#{Zlib.crc32(records.map { |x| [x.bytesize].pack('N') + x.b }.join)}"
    rescue StandardError => e
      "crc=#{exception_name(e)}"
    end

    def open_db(mode_name)
      opts = @rng.chance(25) ? db_class::GEXCEPTIONAL : 0
      mode = case mode_name
             when :writer then db_class::OWRITER | db_class::OCREATE
             when :truncate then db_class::OWRITER | db_class::OCREATE | db_class::OTRUNCATE
             when :reader then db_class::OREADER
             end
      @db = db_class.new(opts)
      @lines << "open #{mode_name} exceptional=#{opts != 0}"
      record("-", "open", [mode_name.to_s]) { @db.open(@file, mode) }
    end

    def close_db
      @cursor&.disable
      @cursor = nil
      if @in_tx
        record("-", "end_transaction", [false]) { @db.end_transaction(false) }
        @in_tx = false
      end
      record("-", "close", []) { @db.close }
    end

    # A visitor's answer, as a block gives it.
    def visit_result(k, v)
      case @rng.int(5)
      when 0 then nil
      when 1 then @kc::Visitor::NOP
      when 2 then @kc::Visitor::REMOVE
      else "#{k}#{v}!".b
      end
    end

    def transcript
      open_db(:truncate)
      @steps.times { |i| step(i) }
      close_db
      @lines
    end

    def cursor
      @cursor ||= @db.cursor
    end

    def step(i)
      db = @db
      case @rng.int(60)
      when 0..5
        k = key
        v = value
        record(i, "set", [k, v]) { db.set(k, v) }
      when 6
        k = key
        v = value
        record(i, "[]=", [k, v]) { db[k] = v }
      when 7
        k = key
        v = value
        record(i, "add", [k, v]) { db.add(k, v) }
      when 8
        k = key
        v = value
        record(i, "replace", [k, v]) { db.replace(k, v) }
      when 9
        k = key
        v = value
        record(i, "append", [k, v]) { db.append(k, v) }
      when 10, 11
        k = key
        record(i, "get", [k]) { db.get(k) }
      when 12
        k = key
        record(i, "check", [k]) { db.check(k) }
      when 13
        k = key
        record(i, "remove", [k]) { db.remove(k) }
      when 14
        k = key
        record(i, "seize", [k]) { db.seize(k) }
      when 15
        record(i, "shift", []) { db.shift }
      when 16
        k = key
        n = @rng.int(7) - 3
        record(i, "increment", [k, n]) { db.increment(k, n, 10) }
      when 17
        k = key
        n = (@rng.int(13) - 6) / 4.0
        record(i, "increment_double", [k, n]) { db.increment_double(k, n, 0.5) }
      when 18
        k = key
        old = @rng.chance(50) ? db.get(k) : (@rng.chance(50) ? nil : value)
        nv = @rng.chance(20) ? nil : value
        record(i, "cas", [k, old, nv]) { db.cas(k, old, nv) }
      when 19
        h = Array.new(@rng.int(4)) { [key, value] }.to_h
        atomic = @rng.chance(50)
        record(i, "set_bulk", [h, atomic]) { db.set_bulk(h, atomic) }
      when 20
        ks = Array.new(@rng.int(4)) { key }
        record(i, "get_bulk", [ks]) { db.get_bulk(ks) }
      when 21
        ks = Array.new(@rng.int(4)) { key }
        atomic = @rng.chance(50)
        record(i, "remove_bulk", [ks, atomic]) { db.remove_bulk(ks, atomic) }
      when 22
        prefix = key[0, 1]
        max = @rng.int(5) - 1
        record(i, "match_prefix", [prefix, max]) { db.match_prefix(prefix, max) }
      when 23
        record(i, "match_regex", ["a"]) { db.match_regex("a") }
      when 24
        k = key
        record(i, "match_similar", [k]) { db.match_similar(k, 1, false, 4) }
      when 25
        record(i, "count", []) { db.count }
      when 26
        k = key
        w = !@rng.chance(20)
        record(i, "accept", [k, w]) { db.accept(k, nil, w) { |kk, vv| visit_result(kk, vv) } }
      when 27
        ks = Array.new(@rng.int(4)) { key }
        record(i, "accept_bulk", [ks]) { db.accept_bulk(ks) { |kk, vv| visit_result(kk, vv) } }
      when 28
        w = @rng.chance(70)
        record(i, "iterate", [w]) do
          seen = []
          ok = db.iterate(nil, w) do |kk, vv|
            seen << [kk, vv]
            w ? visit_result(kk, vv) : nil
          end
          [ok, seen]
        end
      when 29
        record(i, "each", []) do
          out = []
          ok = db.each { |kk, vv| out << [kk, vv] }
          [ok, out]
        end
      when 30
        record(i, "each_key/each_value", []) do
          ks = []
          vs = []
          [db.each_key { |x| ks << x }, ks, db.each_value { |x| vs << x }, vs]
        end
      when 31
        commit = @rng.chance(50)
        # Kyoto Cabinet's begin_transaction waits for the open transaction to end, even on its own thread.
        return if @in_tx

        record(i, "transaction", [commit]) do
          db.transaction do
            db.set(key, value)
            db.remove(key)
            commit
          end
        end
      when 32
        unless @in_tx
          record(i, "begin_transaction", []) { @in_tx = db.begin_transaction(@rng.chance(20)) }
        end
      when 33
        commit = @rng.chance(50)
        record(i, "end_transaction", [commit]) { db.end_transaction(commit) }
        @in_tx = false
      when 34 then record(i, "cursor.jump", []) { cursor.jump }
      when 35
        k = key
        record(i, "cursor.jump", [k]) { cursor.jump(k) }
      when 36 then record(i, "cursor.jump_back", []) { cursor.jump_back }
      when 37
        k = key
        record(i, "cursor.jump_back", [k]) { cursor.jump_back(k) }
      when 38, 39 then record(i, "cursor.step", []) { cursor.step }
      when 40 then record(i, "cursor.step_back", []) { cursor.step_back }
      when 41
        s = @rng.chance(50)
        record(i, "cursor.get", [s]) { cursor.get(s) }
      when 42
        s = @rng.chance(50)
        record(i, "cursor.get_key", [s]) { cursor.get_key(s) }
      when 43
        s = @rng.chance(50)
        record(i, "cursor.get_value", [s]) { cursor.get_value(s) }
      when 44
        v = value
        s = @rng.chance(50)
        record(i, "cursor.set_value", [v, s]) { cursor.set_value(v, s) }
      when 45 then record(i, "cursor.remove", []) { cursor.remove }
      when 46 then record(i, "cursor.seize", []) { cursor.seize }
      when 47
        w = !@rng.chance(20)
        s = @rng.chance(50)
        record(i, "cursor.accept", [w, s]) { cursor.accept(nil, w, s) { |kk, vv| visit_result(kk, vv) } }
      when 48
        snap = File.join(@dir, "snap")
        record(i, "dump_snapshot", []) do
          ok = db.dump_snapshot(snap)
          [ok, ok ? File.binread(snap) : nil]
        end
      when 49
        snap = File.join(@dir, "snap")
        record(i, "load_snapshot", []) { db.load_snapshot(snap) }
      when 50
        mode = @rng.int(4)
        src = db_class.new
        src.open("%", db_class::OWRITER | db_class::OCREATE)
        Array.new(@rng.int(4)) { [key, value] }.each { |kk, vv| src.set(kk, vv) }
        pairs = []
        src.each { |kk, vv| pairs << [kk, vv] }
        record(i, "merge", [pairs, mode]) { db.merge([src], mode) }
        src.close
      when 51
        copy = File.join(@dir, "copy.kct")
        # Kyoto Cabinet copies the file as it is, without its cached pages, and in a transaction with the
        # transaction's writes: synchronize first, outside transactions, as its users must (docs/db.md).
        return if @in_tx

        record(i, "copy", []) do
          ok = db.synchronize(false) && db.copy(copy)
          other = db_class.new
          contents = nil
          if ok && other.open(copy, db_class::OREADER)
            contents = []
            other.each { |kk, vv| contents << [kk, vv] }
            other.close
          end
          File.delete(copy) if File.exist?(copy)
          [ok, contents]
        end
      when 52
        record(i, "clear", []) { db.clear } if @rng.chance(30)
      when 53
        hard = @rng.chance(20)
        answer = @rng.chance(80)
        record(i, "synchronize", [hard, answer]) { db.synchronize(hard) { answer } }
      when 54
        w = @rng.chance(50)
        answer = @rng.chance(80)
        record(i, "occupy", [w, answer]) { db.occupy(w) { |x| answer && x[1] } }
      when 55
        record(i, "status.count", []) { (s = db.status) && s["count"] }
      when 56
        record(i, "path", []) { db.path && File.basename(db.path) }
      when 57
        # Reopen in another mode: a reader refuses every write; the file keeps what was committed.
        close_db
        open_db(@rng.pick(%i[writer writer reader truncate]))
      when 58
        # A call on a closed database, then back to a writer.
        close_db
        record(i, "get(closed)", ["a"]) { @db.get("a") }
        record(i, "set(closed)", %w[a b]) { @db.set("a", "b") }
        open_db(:writer)
      when 59
        record(i, "open(again)", []) { db.open(@file, db_class::OWRITER) }
      end
    end
  end

  # The transcript of +seed+ with the module +kc+ (KyotoCabinet, real or Sluice's).
  def self.transcript(kc, seed, steps, dir)
    Run.new(kc, seed, steps, dir).transcript
  end
end

if $PROGRAM_NAME == __FILE__
  library, seed, steps, dir = ARGV
  require library
  puts KCDifferential.transcript(KyotoCabinet, Integer(seed), Integer(steps), dir)
end
