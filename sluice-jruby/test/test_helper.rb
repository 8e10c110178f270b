# frozen_string_literal: true

require "minitest"
require "tmpdir"
require "fileutils"
require "jruby"
require "sluice"

module SluiceTest
  # Where a String's bytes sit in its backing array, read through JRuby's own objects: [begin, bytesize,
  # array length]. Tests use it to prove they move a slice that does not start at 0 or does not fill its array.
  module Layout
    handles = java.lang.invoke.MethodHandles
    type = java.lang.invoke.MethodType
    lookup = handles.publicLookup
    string = java.lang.Class.forName("org.jruby.RubyString")
    byte_list = java.lang.Class.forName("org.jruby.util.ByteList")
    bytes = java.lang.Class.forName("[B")
    get = lookup.findVirtual(string, "getByteList", type.methodType(byte_list))
    BEGIN_OF = handles.filterReturnValue(get, lookup.findVirtual(byte_list, "begin",
                                                                   type.methodType(java.lang.Integer::TYPE)))
    CAPACITY_OF = handles.filterReturnValue(get, handles.filterReturnValue(
      lookup.findVirtual(byte_list, "unsafeBytes", type.methodType(bytes)), handles.arrayLength(bytes)))
    private_constant :BEGIN_OF, :CAPACITY_OF

    def self.of(s)
      args = [JRuby.reference(s)].to_java(java.lang.Object)
      [BEGIN_OF.invokeWithArguments(args), s.bytesize, CAPACITY_OF.invokeWithArguments(args)]
    end
  end

  # Every byte value, twice, in an order that is not the identity.
  ALL_BYTES = ((0..255).map(&:chr).join + (0..255).to_a.reverse.map(&:chr).join).b.freeze

  # A fresh directory per test, removed afterwards.
  module TempDir
    def setup
      super
      @dir = Dir.mktmpdir("sluice-test")
    end

    def teardown
      FileUtils.rm_rf(@dir) if @dir
      super
    end

    def path(name)
      File.join(@dir, name)
    end

    # Mounts a tmpfs with +options+ (such as "size=1m" or "ro") on a new directory +name+ under the test's directory,
    # yields its path and unmounts it. Skips, saying why, where mounting is not allowed (it needs root, or a user
    # namespace that grants it).
    def with_tmpfs(name, options)
      mnt = path(name)
      Dir.mkdir(mnt)
      out = IO.popen(["mount", "-t", "tmpfs", "-o", options, "tmpfs", mnt], err: %i[child out], &:read)
      skip "needs a tmpfs mounted with #{options}, and mount said: #{out.strip} (exit #{$?.exitstatus})" unless $?.success?
      begin
        yield mnt
      ensure
        system("umount", mnt)
      end
    rescue Errno::ENOENT => e
      skip "needs mount(8) to mount a tmpfs: #{e.message}"
    end
  end
end
