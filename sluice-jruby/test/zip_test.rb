# frozen_string_literal: true

require "test_helper"

class SluiceZipTest < Minitest::Test
  include SluiceTest::TempDir
  ALL_BYTES = SluiceTest::ALL_BYTES

  # Writes an archive with the JDK's ZipOutputStream: name => [bytes, :stored or :deflated].
  def make_zip(file, entries)
    out = java.util.zip.ZipOutputStream.new(java.io.FileOutputStream.new(file))
    entries.each do |name, (bytes, method)|
      e = java.util.zip.ZipEntry.new(name)
      if method == :stored
        crc = java.util.zip.CRC32.new
        crc.update(bytes.to_java_bytes)
        e.method = java.util.zip.ZipEntry::STORED
        e.size = bytes.bytesize
        e.compressed_size = bytes.bytesize
        e.crc = crc.value
      end
      out.put_next_entry(e)
      out.write(bytes.to_java_bytes) unless bytes.empty?
      out.close_entry
    end
    out.close
    file
  end

  def sample
    random = Random.new(3)
    entries = { "dir/" => ["".b, :deflated] }
    40.times { |i| entries["dir/small-#{i}.bin"] = [random.bytes(random.rand(1..5000)), i.even? ? :stored : :deflated] }
    entries["text.txt"] = [("line of text\n" * 20_000).b, :deflated]
    entries["all.bin"] = [ALL_BYTES, :stored]
    entries["grüße.txt"] = ["utf-8 name".b, :deflated]
    entries
  end

  def test_entries_read_and_each
    entries = sample
    Sluice::Zip.open(make_zip(path("a.zip"), entries)) do |zip|
      assert_equal entries.size, zip.size
      assert_equal entries.keys, zip.names
      assert_equal entries.keys, zip.entries.map(&:name)
      assert_equal entries.keys, zip.map(&:name), "Enumerable over each"
      entries.each do |name, (bytes, method)|
        data = zip.read(name)
        assert_equal bytes, data, name
        assert_equal Encoding::BINARY, data.encoding
        entry = zip[name]
        assert_equal bytes.bytesize, entry.size
        assert_equal method, entry.compression_method unless name.end_with?("/")
        assert_equal bytes, entry.read
        assert_equal bytes, zip.read(entry)
      end
      assert zip["dir"].directory?, "a name without the slash finds the directory"
      assert zip["text.txt"].file?
      assert_operator zip["text.txt"].compressed_size, :<, zip["text.txt"].size
      assert_kind_of Time, zip["all.bin"].mtime
      assert_nil zip["missing"]
      assert_raises(Errno::ENOENT) { zip.read("missing") }
      assert_kind_of Enumerator, zip.each
    end
  end

  def test_threads_read_one_archive_at_once
    entries = sample
    zip = Sluice::Zip.open(make_zip(path("t.zip"), entries))
    begin
      names = entries.keys
      threads = 8.times.map do |t|
        Thread.new do
          random = Random.new(t)
          300.times do
            name = names[random.rand(names.size)]
            raise "thread #{t}: #{name} differs" unless zip.read(name) == entries[name][0]
          end
          true
        end
      end
      assert(threads.map(&:value).all?)
    ensure
      zip.close
    end
  end

  def test_extract_writes_the_tree_within_limits
    entries = sample
    file = make_zip(path("x.zip"), entries)
    Sluice::Zip.open(file) do |zip|
      assert_equal entries.size, zip.extract(path("out"))
      entries.each { |name, (bytes, _)| assert_equal bytes, File.binread(path("out/#{name}")) unless name.end_with?("/") }
      assert_raises(Errno::EEXIST) { zip.extract(path("out")) }
      error = assert_raises(Sluice::ZipError) { zip.extract(path("few"), max_entries: 3) }
      assert_includes error.message, "3"
      refute File.exist?(path("few/text.txt")), "nothing written past a refused limit"
      assert_raises(Sluice::ZipError) { zip.extract(path("small"), max_bytes: 1000) }
    end
  end

  def test_extract_refuses_names_that_leave_the_directory
    file = make_zip(path("slip.zip"), { "ok.txt" => ["fine".b, :deflated], "../evil.txt" => ["evil".b, :deflated] })
    Sluice::Zip.open(file) do |zip|
      error = assert_raises(Sluice::ZipError) { zip.extract(path("out")) }
      assert_includes error.message, "../evil.txt"
    end
    refute File.exist?(path("evil.txt"))
  end

  def test_damaged_archives_and_closed_ones
    File.binwrite(path("bad.zip"), "PK not really a zip archive")
    error = assert_raises(Sluice::ZipError) { Sluice::Zip.open(path("bad.zip")) }
    assert_includes error.message, path("bad.zip")
    assert_raises(Errno::ENOENT) { Sluice::Zip.open(path("none.zip")) }

    archive = nil
    assert_raises(RuntimeError) do
      Sluice::Zip.open(make_zip(path("c.zip"), { "a" => ["b".b, :stored] })) do |zip|
        archive = zip
        raise "boom"
      end
    end
    assert_predicate archive, :closed?
    assert_raises(Sluice::Error) { archive.read("a") }
  end

  def test_a_directory_is_eisdir_as_for_ruby_file
    assert_raises(Errno::EISDIR) { File.open(@dir) { |f| f.read } }
    error = assert_raises(Errno::EISDIR) { Sluice::Zip.open(@dir) }
    assert_includes error.message, @dir
  end

  def test_each_on_a_closed_archive_raises_as_names_does
    zip = Sluice::Zip.open(make_zip(path("c.zip"), { "a" => ["x".b, :stored] }))
    zip.close
    names_error = assert_raises(Sluice::Error) { zip.names }
    each_error = assert_raises(Sluice::Error) { zip.each { |_| flunk "yielded from a closed archive" } }
    assert_equal names_error.message.sub("names(", "each("), each_error.message
  end
end
