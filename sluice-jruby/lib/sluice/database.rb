# frozen_string_literal: true

# Loaded by sluice.rb after the extension that defines Sluice::DB in Java; `require "sluice/db"` is the entry point.

module Sluice
  # An embedded ordered key-value store with Kyoto Cabinet's Ruby API (KyotoCabinet::DB, as a tree database), on H2's
  # MVStore: pure Java, nothing to compile. Keys and values are binary Strings ordered as unsigned bytes.
  #
  #   db = Sluice::DB.new
  #   db.open("index.kct", Sluice::DB::OWRITER | Sluice::DB::OCREATE) or raise db.error.to_s
  #   db["chr1:0001"] = "\x00\x00\x10\x00".b
  #   db.cursor_process { |cur| cur.jump("chr1:"); while (k, v = cur.get(true)); ...; end }
  #   db.transaction { db.set("a", "1"); db.set("b", "2"); true }      # a true value commits
  #   db.close
  #
  # Differences from Kyoto Cabinet:
  # * Every file is a tree database, whatever its extension; tuning parameters after '#' in the path are accepted
  #   and ignored. The in-memory names ('%', ':', '*', '-', '+') all make an ordered store in memory.
  # * A file locked by another process fails at once (as with OTRYLOCK) instead of waiting; within one JVM a file
  #   can be open in one DB at a time, even read-only.
  # * Writes outside transactions are committed about once a second and on close/synchronize, not at each call;
  #   OAUTOTRAN and OAUTOSYNC are accepted and ignored (use transactions for atomic, durable groups of writes).
  # * copy commits first and copies what is committed (Kyoto Cabinet copies the file as it is).
  # * With GEXCEPTIONAL, an open the system refuses (permission denied, a read-only file system, a file where a
  #   directory should be) raises the Errno:: class File.open would raise for that path, with the path and the cause
  #   in its message; db.error still records it (NOPERM for permission and read-only file systems, else SYSTEM).
  # docs/db.md lists these with their reasons; test/db_differential_test.rb compares the rest with Kyoto Cabinet.
  class DB
    # Open modes (Kyoto Cabinet's values).
    OREADER = 1 << 0
    OWRITER = 1 << 1
    OCREATE = 1 << 2
    OTRUNCATE = 1 << 3
    OAUTOTRAN = 1 << 4
    OAUTOSYNC = 1 << 5
    ONOLOCK = 1 << 6
    OTRYLOCK = 1 << 7
    ONOREPAIR = 1 << 8
    # Options of DB.new: GEXCEPTIONAL makes errors raise; GCONCURRENT is accepted (every DB is thread-safe).
    GEXCEPTIONAL = 1 << 0
    GCONCURRENT = 1 << 1

    # Paths naming a store in memory.
    MEMORY_PATHS = %w[% : * - +].freeze
    private_constant :MEMORY_PATHS

    # The error of a DB's last failed call (Kyoto Cabinet's KyotoCabinet::Error): code, name ("no record") and
    # message, an instance of the code's subclass X<NAME> (XNOREC), which is what is raised when the DB was made with
    # GEXCEPTIONAL.
    class Error < RuntimeError
      SUCCESS = 0
      NOIMPL = 1
      INVALID = 2
      NOREPOS = 3
      NOPERM = 4
      BROKEN = 5
      DUPREC = 6
      NOREC = 7
      LOGIC = 8
      SYSTEM = 9
      MISC = 15

      attr_reader :code, :message

      # Kyoto Cabinet's readable names of the codes.
      CODE_NAMES = { SUCCESS => "success", NOIMPL => "not implemented", INVALID => "invalid operation",
                     NOREPOS => "no repository", NOPERM => "no permission", BROKEN => "broken file",
                     DUPREC => "record duplication", NOREC => "no record", LOGIC => "logical inconsistency",
                     SYSTEM => "system error" }.freeze

      # Error.new(code, message), or Error::XNAME.new(message) as raised in exceptional mode.
      def initialize(code = nil, message = nil)
        if code.is_a?(String) && message.nil?
          message = code
          code = nil
        end
        @code = code.nil? ? (self.class.const_defined?(:CODE) ? self.class::CODE : SUCCESS) : code.to_i
        @message = message.nil? ? "error" : message.to_s
        super(@message)
      end

      # The constant name of +code+: "NOREC".
      def self.name_of(code)
        %i[SUCCESS NOIMPL INVALID NOREPOS NOPERM BROKEN DUPREC NOREC LOGIC SYSTEM MISC]
          .find { |n| Error.const_get(n) == code }.to_s
      end

      # The code's readable name, as Kyoto Cabinet gives it: "no record".
      def name
        CODE_NAMES.fetch(@code, "miscellaneous error")
      end

      # The code.
      def to_i
        @code
      end

      # "name: message", as Kyoto Cabinet's: "no record: no record".
      def to_s
        "#{name}: #{@message}"
      end

      def inspect
        "#<#{Error}: #{@code}: #{self}>"
      end

      # Whether the code is +other+ (an Integer or an Error).
      def ==(other)
        other.is_a?(Integer) ? @code == other : super
      end

      def !=(other)
        !(self == other)
      end

      %i[SUCCESS NOIMPL INVALID NOREPOS NOPERM BROKEN DUPREC NOREC LOGIC SYSTEM MISC].each do |n|
        klass = Class.new(self)
        klass.const_set(:CODE, const_get(n))
        const_set(:"X#{n}", klass)
      end
    end

    # The block form of open: opens, yields, closes. Returns nil, or the Error when opening or closing failed (as
    # Kyoto Cabinet does).
    def self.process(path = "*", mode = OWRITER | OCREATE, opts = 0)
      db = new(opts)
      return db.error unless db.open(path, mode)

      begin
        yield db
      ensure
        closed = db.close
      end
      closed ? nil : db.error
    end

    # +opts+: GEXCEPTIONAL to raise errors.
    def initialize(opts = 0)
      opts = opts.to_i
      self.sluice_exceptional = (opts & GEXCEPTIONAL) != 0
    end

    # Opens the database at +path+ ('%' or ':' for one in memory; '#name=value' tuning suffixes are ignored) in
    # +mode+ (OREADER, or OWRITER with OCREATE and OTRUNCATE); true, or false with the error recorded.
    def open(path = ":", mode = OWRITER | OCREATE)
      name = path.to_s.split("#", 2).first
      writable = (mode & OWRITER) != 0
      if MEMORY_PATHS.include?(name) || name.empty?
        @path = name.empty? ? ":" : name
        return sluice_open(nil, true, true, false)
      end
      @path = name
      sluice_open(::File.absolute_path(name), writable, writable && (mode & OCREATE) != 0,
                  writable && (mode & OTRUNCATE) != 0, (mode & ONOREPAIR).zero?)
    end

    # The last error.
    def error
      code, name, message = sluice_error
      # The subclass of the code, as Kyoto Cabinet's error is.
      Error.const_get(:"X#{name.empty? ? 'MISC' : name}").new(code, message)
    end

    # The path the database was opened with (as given, without tuning parameters), nil when not open.
    def path
      sluice_path && @path
    end

    # Commits every write (a background thread does so about once a second anyway) and with +hard+ syncs the file
    # to the disk. Then calls +proc+ (a FileProcessor: process(path, count, size)) or the block (with
    # [path, count, size]), as Kyoto Cabinet does; false with error LOGIC if that returns false.
    def synchronize(hard = false, proc = nil, &block)
      return false unless sluice_sync(hard)

      sluice_process(proc, block)
    end

    # Runs the block in a transaction (see begin_transaction): it commits when the block returns a true value, and
    # aborts when it returns false or nil -- Kyoto Cabinet's rule, so a block ending in a call that returns nil
    # aborts -- or raises. Like Kyoto Cabinet, returns true whether it committed or aborted, false only when the
    # transaction could not begin or end.
    def transaction(hard = false)
      return false unless begin_transaction(hard)

      commit = false
      begin
        commit = yield ? true : false
      ensure
        ended = end_transaction(commit)
      end
      ended
    end

    # A new cursor (see Sluice::DB::Cursor), or nil when not open.
    def cursor
      sluice_cursor
    end

    # Yields a new cursor and disables it when the block ends; returns nil.
    def cursor_process
      cur = sluice_cursor
      return nil unless cur

      begin
        yield cur
      ensure
        cur.disable
      end
      nil
    end

    # Yields [key, value] for every record in key order (or returns an Enumerator); true, or false when not open.
    def each(&block)
      return enum_for(:each) unless block

      sluice_each(&block)
    end
    alias each_pair each
    include Enumerable

    # Yields [key] for every record in key order, a one-element Array as Kyoto Cabinet's binding yields; true.
    def each_key
      return enum_for(:each_key) unless block_given?

      sluice_each { |k, _| yield [k] }
    end

    # Yields [value] for every record in key order, a one-element Array as Kyoto Cabinet's binding yields; true.
    def each_value
      return enum_for(:each_value) unless block_given?

      sluice_each { |_, v| yield [v] }
    end

    # The keys that match +regex+, in order, at most +max+ (negative: all); as in Kyoto Cabinet, a key is matched up
    # to its first NUL byte, and the walk leaves error NOREC behind.
    def match_regex(regex, max = -1)
      regex = Regexp.new(regex.to_s) unless regex.is_a?(Regexp)
      out = []
      sluice_each do |k, _|
        break if max >= 0 && out.size >= max

        # Kyoto Cabinet matches a key as a C string: up to its first NUL byte.
        nul = k.index("\x00".b)
        out << k if regex.match?(nul ? k.byteslice(0, nul) : k)
      end
      sluice_note(Error::NOREC, "no record")
      out
    end


    # The size of the value of +key+, or -1 (error NOREC) when there is none.
    def check(key)
      value = get(key)
      value ? value.bytesize : -1
    end

    # A Hash of every record.
    def to_hash
      h = {}
      sluice_each { |k, v| h[k] = v }
      h
    end

    # "#<Sluice::DB: path: count: size>"
    def inspect
      return "#<#{self.class}: (not opened)>" unless sluice_path

      "#<#{self.class}: #{@path}: #{count}: #{size}>"
    end

    # "path: count: size"
    def to_s
      return "(not opened)" unless sluice_path

      "#{@path}: #{count}: #{size}"
    end

    # Merge modes of #merge (Kyoto Cabinet's values).
    MSET = 0
    MADD = 1
    MREPLACE = 2
    MAPPEND = 3

    # What #accept, #accept_bulk, #iterate and Cursor#accept call: visit_full(key, value) for a record,
    # visit_empty(key) for a key without one. Each returns the new value (a String, or any object's to_s), NOP to
    # leave the record as it is (nil does the same), or REMOVE to remove it. A Proc or block called with (key,
    # value), value nil when there is none, serves as well.
    class Visitor
      # Leave the record as it is.
      NOP = Object.new.tap { |o| o.define_singleton_method(:inspect) { "NOP" } }.freeze
      # Remove the record.
      REMOVE = Object.new.tap { |o| o.define_singleton_method(:inspect) { "REMOVE" } }.freeze

      # Called for a key with a record; NOP here.
      def visit_full(_key, _value)
        NOP
      end

      # Called for a key without a record; NOP here.
      def visit_empty(_key)
        NOP
      end
    end

    # What #synchronize and #occupy call, as process(path, count, size); a Proc or block serves as well.
    class FileProcessor
      # Called with the path, the number of records and the size; true here.
      def process(_path, _count, _size)
        true
      end
    end

    # Calls +visitor+ (or the block) for +key+ and applies what it returns, as one step for other writers when
    # +writable+; true, or false with the error recorded (LOGIC when a visitor of a read-only call returns a value).
    def accept(key, visitor = nil, writable = true, &block)
      visitor ||= block or raise LocalJumpError, "no block given"
      sluice_visit_keys([key], visitor, writable)
    end

    # #accept for each of +keys+, in order, as one step for other writers.
    def accept_bulk(keys, visitor = nil, writable = true, &block)
      visitor ||= block or raise LocalJumpError, "no block given"
      sluice_visit_keys(keys.to_a, visitor, writable)
    end

    # Calls +visitor+ (or the block) for every record, in key order, applying what it returns; as one step for other
    # writers when +writable+. True, or false with the error recorded.
    def iterate(visitor = nil, writable = true, &block)
      visitor ||= block or raise LocalJumpError, "no block given"
      # The walk goes on over the tree as it was when it began, whatever the visitor changes.
      sluice_visit(visitor, writable) { |&pair| sluice_each(&pair) }
    end

    # Compare and swap: sets +key+ to +nval+ (removes it when +nval+ is nil) only if its value is +oval+ (has none
    # when +oval+ is nil); false with error LOGIC otherwise.
    def cas(key, oval, nval)
      sluice_exclusive do
        old = sluice_value(key)
        if oval.nil? ? old.nil? : !old.nil? && old.b == oval.to_s.b
          nval.nil? ? (old.nil? || remove(key)) : set(key, nval)
        else
          sluice_fail(Error::LOGIC, "status conflict")
        end
      end
    end

    # Adds +num+ to the decimal stored in Kyoto Cabinet's 16 bytes (integer and fraction parts, each a big-endian
    # 64-bit integer, the fraction in units of 1e-15); a missing record starts at +orig+. The sum, or nil (error
    # LOGIC) for a value of another length or a NaN.
    def increment_double(key, num = 0, orig = 0)
      num = Float(num)
      orig = Float(orig)
      out = sluice_exclusive do
        old = sluice_value(key)
        if old.nil?
          next sluice_fail(Error::LOGIC, "logical inconsistency") if (num + orig).nan?

          whole, part = DECIMAL.split(num + orig)
        elsif old.bytesize != 16 || num.nan?
          next sluice_fail(Error::LOGIC, "logical inconsistency")
        else
          whole, part = old.unpack("q>q>")
          add_whole, add_part = DECIMAL.split(num)
          whole += add_whole
          part += add_part
          if part >= DECIMAL::UNIT
            whole += 1
            part -= DECIMAL::UNIT
          end
        end
        set(key, [whole, part].pack("q>q>"))
        whole + part.to_f / DECIMAL::UNIT
      end
      out.is_a?(Float) ? out : nil
    end

    # Kyoto Cabinet's fixed-point decimal: an integer part and a fraction in units of 1/UNIT.
    module DECIMAL
      UNIT = 1_000_000_000_000_000

      # [integer part, fraction part] of +num+, both truncated toward zero.
      def self.split(num)
        whole = num.truncate
        [whole, ((num - whole) * UNIT).truncate]
      end
    end
    private_constant :DECIMAL

    # Copies the database file to +dest+, as it is after committing every write; true, or false with the error.
    def copy(dest)
      sluice_copy(dest.to_s)
    end

    # Writes every record to +dest+ in Kyoto Cabinet's snapshot format ("KCSS\n" and a 0 byte, then per record a 0
    # byte, the key's and the value's sizes as base-128 numbers and the bytes, then 0xFF), which #load_snapshot (and
    # Kyoto Cabinet's) reads. True, or false with the error.
    def dump_snapshot(dest)
      return false unless sluice_usable(false)

      begin
        ::File.open(dest.to_s, "wb") do |out|
          out.write("KCSS\n\x00".b)
          sluice_each do |k, v|
            out.write("\x00".b, Sluice::DB.sluice_varnum(k.bytesize), Sluice::DB.sluice_varnum(v.bytesize), k, v)
          end
          out.write("\xFF".b)
        end
      rescue SystemCallError, IOError => e
        return sluice_fail(e.is_a?(Errno::ENOENT) ? Error::NOREPOS : Error::SYSTEM, "dump_snapshot: #{e.message}")
      end
      true
    end

    # Sets every record of the snapshot file +src+ (see #dump_snapshot), keeping the others; true, or false with the
    # error (NOREPOS for a missing file, SYSTEM for one that is not a snapshot).
    def load_snapshot(src)
      return false unless sluice_usable(false)

      begin
        data = ::File.binread(src.to_s)
      rescue SystemCallError, IOError => e
        return sluice_fail(e.is_a?(Errno::ENOENT) ? Error::NOREPOS : Error::SYSTEM, "load_snapshot: #{e.message}")
      end
      records = Sluice::DB.sluice_parse_snapshot(data)
      return sluice_fail(Error::SYSTEM, "load_snapshot(#{src}): not a snapshot file, or cut short") unless records

      # Record by record, as Kyoto Cabinet loads: a reader fails at the first record, not before.

      records.each { |k, v| set(k, v) or return false }
      true
    end

    # Copies the records of every database in +srcary+ into this one, as +mode+ says: MSET (replace), MADD (keep
    # what is here), MREPLACE (only keys here already), MAPPEND (append to what is here). True, or false.
    def merge(srcary, mode = MSET)
      return false unless sluice_usable(false)
      unless [MSET, MADD, MREPLACE, MAPPEND].include?(mode)
        return sluice_fail(Error::INVALID, "merge: unknown mode #{mode}")
      end

      srcary.each do |src|
        src.each do |k, v|
          done = case mode
                 when MSET then set(k, v)
                 when MADD then add(k, v)
                 when MREPLACE then replace(k, v)
                 else append(k, v)
                 end
          # A key kept by MADD or skipped by MREPLACE is no failure of the merge (its DUPREC or NOREC stays noted).
          return false unless done || [Error::DUPREC, Error::NOREC].include?(error.code)
        end
      end
      true
    end

    # The database's state as Kyoto Cabinet's status gives it, Strings to Strings: count, size, path, and type
    # (49, Kyoto Cabinet's tree database, for a file; 17, its in-memory tree, in memory); nil when not open.
    def status
      return nil unless sluice_usable(false)

      memory = sluice_path.empty?
      type = memory ? "17" : "49"
      { "count" => count.to_s, "size" => size.to_s, "realsize" => size.to_s, "path" => @path.to_s,
        "type" => type, "realtype" => type }
    end

    # Calls +proc+ (a FileProcessor) or the block as #synchronize does, with no other thread writing meanwhile when
    # +writable+ (the write lock is held). True, or false (error LOGIC if the processor returns false).
    def occupy(writable = false, proc = nil, &block)
      call = -> { sluice_process(proc, block) }
      return false unless sluice_usable(false)

      # A reader has no writers to hold off (Kyoto Cabinet's occupy(true) works on a reader too).
      writable && sluice_writable? ? sluice_exclusive(&call) : call.call
    end

    # The keys within Levenshtein distance +range+ of +origin+ (counted in characters with +utf+, else in bytes),
    # nearest first and then in key order, at most +max+ (negative: all).
    def match_similar(origin, range = 1, utf = false, max = -1)
      return nil unless sluice_usable(false)

      origin = utf ? origin.to_s.dup.force_encoding(Encoding::UTF_8).chars : origin.to_s.b.bytes
      found = []
      sluice_each do |k, _|
        d = Sluice::DB.sluice_levenshtein(origin, utf ? k.dup.force_encoding(Encoding::UTF_8).chars : k.bytes, range)
        found << [d, k] if d <= range
      end
      found.sort!
      found = found.first(max) if max >= 0
      sluice_note(Error::NOREC, "no record")
      found.map(&:last)
    end

    # Sets which error codes raise (an Array of Error codes); errors raise from then on even without GEXCEPTIONAL.
    def tune_exception_rule(codes)
      sluice_exception_rule(codes.to_a.map(&:to_i))
    end

    # Sets the encoding given to the Strings returned (ASCII-8BIT by default); nil goes back to binary. True.
    def tune_encoding(enc)
      self.sluice_encoding = enc.nil? ? nil : Encoding.find(enc.to_s)
      true
    end

    # The pieces shared by the visitor methods of DB and Cursor. Not for use outside them.
    class << self
      # What +visitor+ returns for +key+ and +value+ (nil: no record).
      # A Proc (the block) is called with [key, value], or [key] when there is no record, as Kyoto Cabinet yields.
      def sluice_call(visitor, key, value)
        if value.nil?
          visitor.respond_to?(:visit_empty) ? visitor.visit_empty(key) : visitor.call([key])
        else
          visitor.respond_to?(:visit_full) ? visitor.visit_full(key, value) : visitor.call([key, value])
        end
      end

      # Applies a visitor's +result+ to +key+ of +db+ (+value+: its record, or nil); true or false.
      # :conflict for a value returned to a read-only visit, which Kyoto Cabinet ignores and reports (LOGIC) once the
      # visit is over.
      def sluice_apply(db, key, value, result, writable)
        return true if result.nil? || result.equal?(Visitor::NOP)
        return :conflict unless writable
        return value.nil? || db.remove(key) if result.equal?(Visitor::REMOVE)

        db.set(key, result)
      end

      # Kyoto Cabinet's variable-length number: base 128, most significant group first, high bit on all but the last.
      def sluice_varnum(n)
        out = [n & 0x7f]
        out.unshift(0x80 | ((n >>= 7) & 0x7f)) while n >= 0x80
        out.pack("C*")
      end

      # The records of a snapshot file's bytes, or nil when they are not one.
      def sluice_parse_snapshot(data)
        return nil unless data.start_with?("KCSS\n\x00".b)

        pos = 6
        records = []
        loop do
          tag = data.getbyte(pos) or return nil
          return records if tag == 0xFF
          return nil unless tag.zero?

          ksiz, pos = read_varnum(data, pos + 1)
          vsiz, pos = read_varnum(data, pos) if pos
          return nil if pos.nil? || pos + ksiz + vsiz > data.bytesize

          records << [data.byteslice(pos, ksiz), data.byteslice(pos + ksiz, vsiz)]
          pos += ksiz + vsiz
        end
      end

      # The Levenshtein distance of two Arrays, or range + 1 as soon as it must exceed +range+.
      def sluice_levenshtein(a, b, range)
        return range + 1 if (a.size - b.size).abs > range

        prev = (0..b.size).to_a
        a.each_with_index do |x, i|
          cur = [i + 1]
          b.each_with_index { |y, j| cur << [prev[j + 1] + 1, cur[j] + 1, prev[j] + (x == y ? 0 : 1)].min }
          return range + 1 if cur.min > range

          prev = cur
        end
        prev.last
      end

      private

      def read_varnum(data, pos)
        n = 0
        loop do
          c = data.getbyte(pos) or return nil
          pos += 1
          n = (n << 7) | (c & 0x7f)
          return [n, pos] if c < 0x80
        end
      end
    end

    private

    # Kyoto Cabinet's post-processing: +processor+'s process(path, count, size) (another object is not called), else
    # the block called with [path, count, size]; false with LOGIC when that returns false or nil.
    def sluice_process(processor, block)
      result = if processor
                 processor.respond_to?(:process) ? processor.process(path, count, size) : true
               elsif block
                 block.call([path, count, size])
               else
                 true
               end
      result ? true : sluice_fail(Error::LOGIC, "postprocessing failed")
    end

    def sluice_conflict
      sluice_fail(Error::LOGIC, "confliction with the read-only parameter")
    end

    # Each of +keys+ with its value, read inside the step so the visitor sees what other writers left.
    def sluice_visit_keys(keys, visitor, writable)
      sluice_visit(visitor, writable) do |&pair|
        keys.each { |key| pair.call(key.to_s.b, sluice_value(key)) }
      end
    end

    # Calls +visitor+ for every [key, value] the block hands to the proc it is given, applying what it returns;
    # the block runs inside one exclusive step when +writable+, so #accept, #accept_bulk and #iterate share one
    # account of conflicts and failures.
    def sluice_visit(visitor, writable, &pairs)
      visit = lambda do
        conflict = false
        pairs.call do |key, value|
          done = Sluice::DB.sluice_apply(self, key, value, Sluice::DB.sluice_call(visitor, key, value), writable)
          return false unless done

          conflict ||= done == :conflict
        end
        conflict ? sluice_conflict : true
      end
      return false unless sluice_usable(writable)

      writable ? sluice_exclusive(&visit) : visit.call
    end

    public

    # Kyoto Cabinet's cursor: see the class methods of Sluice::DB::Cursor (jump, step, key, value, get).
    class Cursor
      # Calls +visitor+ (or the block) for the current record and applies what it returns, then steps if +step+
      # (after REMOVE the cursor is on the next record already). True, or false (NOREC when nowhere).
      def accept(visitor = nil, writable = true, step = false, &block)
        visitor ||= block or raise LocalJumpError, "no block given"
        return false if writable && !db.send(:sluice_usable, true)

        at = get(false) or return false
        key, value = at
        result = Sluice::DB.sluice_call(visitor, key, value)
        done = Sluice::DB.sluice_apply(db, key, value, result, writable)
        return false unless done

        if done == :conflict
          # Kyoto Cabinet steps all the same, then reports the value it ignored.
          sluice_off_the_end if step && !sluice_step_on
          return db.send(:sluice_conflict)
        end

        changed = !(result.nil? || result.equal?(Visitor::NOP))
        # After a write the cursor reads the tree again at its key: the new value, or after REMOVE the next record,
        # which is where a step would have gone.
        on = changed ? sluice_reposition(key) : true
        on = sluice_step_on if step && !result.equal?(Visitor::REMOVE)
        sluice_off_the_end unless on
        true
      end

      # Sets the current record's value, then steps if +step+; true, or false.
      def set_value(value, step = false)
        return false unless db.send(:sluice_usable, true)

        key = self.key(false) or return false
        db.set(key, value) or return false
        sluice_reposition(key)
        sluice_off_the_end if step && !sluice_step_on
        true
      end

      # Removes the current record; the cursor moves to the next one. True, or false.
      def remove
        return false unless db.send(:sluice_usable, true)

        key = self.key(false) or return false
        db.remove(key) or return false
        sluice_off_the_end unless sluice_reposition(key)
        true
      end

      # Removes the current record and returns [key, value]; the cursor moves to the next one. Nil when nowhere.
      def seize
        return nil unless db.send(:sluice_usable, true)

        pair = get(false) or return nil
        db.remove(pair[0]) or return nil
        sluice_off_the_end unless sluice_reposition(pair[0])
        pair
      end

      def inspect
        "#<#{self.class}>"
      end

      private

      # A move that went past the last record leaves NOREC, as Kyoto Cabinet's cursor does, even when the call
      # itself succeeded.
      def sluice_off_the_end
        db.send(:sluice_note, Error::NOREC, "no record")
      end
    end
  end
end
