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
  # Differences from Kyoto Cabinet, all in the direction of doing less:
  # * Every file is a tree database, whatever its extension; tuning parameters after '#' in the path are accepted
  #   and ignored. The in-memory names ('%', ':', '*', '-', '+') all make an ordered store in memory.
  # * A file locked by another process fails at once (as with OTRYLOCK) instead of waiting; within one JVM a file
  #   can be open in one DB at a time, even read-only.
  # * Writes outside transactions are committed about once a second and on close/synchronize, not at each call;
  #   OAUTOTRAN and OAUTOSYNC are accepted and ignored (use transactions for atomic, durable groups of writes).
  # * Methods Kyoto Cabinet has and this store has not raise NotImplementedError.
  # * With GEXCEPTIONAL, an open the system refuses (permission denied, a read-only file system, a file where a
  #   directory should be) raises the Errno:: class File.open would raise for that path, with the path and the cause
  #   in its message; db.error still records it (NOPERM for permission and read-only file systems, else SYSTEM).
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

    # The error of a DB's last failed call (Kyoto Cabinet's KyotoCabinet::Error): code, name and message; raised as
    # its subclass X<NAME> when the DB was made with GEXCEPTIONAL.
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

      # Error.new(code, message), or Error::XNAME.new("NAME: message") as raised in exceptional mode.
      def initialize(code = MISC, message = nil)
        if code.is_a?(String) && message.nil?
          @code = self.class.const_defined?(:CODE, false) ? self.class::CODE : MISC
          text = code.delete_prefix("#{Error.name_of(@code)}: ")
        else
          @code = code.to_i
          text = message.to_s
        end
        @message = text
        super(text)
      end

      # The name of +code+: "NOREC".
      def self.name_of(code)
        %i[SUCCESS NOIMPL INVALID NOREPOS NOPERM BROKEN DUPREC NOREC LOGIC SYSTEM MISC]
          .find { |n| Error.const_get(n) == code }.to_s
      end

      # The code's name: "NOREC".
      def name
        Error.name_of(@code)
      end

      # "NAME: message".
      def to_s
        "#{name}: #{@message}"
      end

      def inspect
        "#<#{self.class}: #{self}>"
      end

      # Whether the code is +other+ (an Integer or an Error).
      def ==(other)
        other.is_a?(Integer) ? @code == other : super
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
      @path = ::File.absolute_path(name)
      sluice_open(@path, writable, writable && (mode & OCREATE) != 0, writable && (mode & OTRUNCATE) != 0,
                  (mode & ONOREPAIR).zero?)
    end

    # The last error.
    def error
      code, _name, message = sluice_error
      Error.new(code, message)
    end

    # The path the database was opened with (without tuning parameters), nil when not open.
    def path
      sluice_path && @path
    end

    # Commits every write (a background thread does so about once a second anyway) and with +hard+ syncs the file
    # to the disk. With a +proc+ or block, calls it with the path, count and size after the sync (Kyoto Cabinet's
    # FileProcessor), returning false if it returns false.
    def synchronize(hard = false, proc = nil, &block)
      return false unless sluice_sync(hard)

      proc ||= block
      return true unless proc

      proc.respond_to?(:process) ? proc.process(path, count, size) != false : proc.call(path, count, size) != false
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

    # Yields [key, value] for every record in key order (or returns an Enumerator); true.
    def each
      return enum_for(:each) unless block_given?

      cursor_process do |cur|
        cur.jump
        while (pair = cur.get(true))
          yield pair
        end
      end
      true
    end
    alias each_pair each
    include Enumerable

    # Yields every key in order; true.
    def each_key
      return enum_for(:each_key) unless block_given?

      each { |k, _| yield k }
    end

    # Yields every value in key order; true.
    def each_value
      return enum_for(:each_value) unless block_given?

      each { |_, v| yield v }
    end

    # The keys that match +regex+, in order, at most +max+ (negative: all).
    def match_regex(regex, max = -1)
      regex = Regexp.new(regex.to_s) unless regex.is_a?(Regexp)
      out = []
      each_key do |k|
        break if max >= 0 && out.size >= max

        out << k if regex.match?(k)
      end
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
      each { |k, v| h[k] = v }
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

    %i[accept accept_bulk iterate copy dump_snapshot load_snapshot merge occupy
       increment_double cas match_similar status begin_transaction_try tune_exception_rule tune_encoding].each do |m|
      define_method(m) do |*_args|
        raise NotImplementedError, "Sluice::DB##{m} is not implemented: Sluice::DB provides Kyoto Cabinet's " \
                                   "record, bulk, cursor and transaction methods only"
      end
    end

    # Kyoto Cabinet's cursor: see the class methods of Sluice::DB::Cursor (jump, step, key, value, get).
    class Cursor
      %i[accept set_value remove seize].each do |m|
        define_method(m) do |*_args|
          raise NotImplementedError, "Sluice::DB::Cursor##{m} is not implemented: cursors here only read"
        end
      end

      def inspect
        "#<#{self.class}>"
      end
    end
  end
end
