# frozen_string_literal: true

require "test_helper"

# IOExceptions become the Errno:: class of their errno, keeping the Java message; the rest Sluice::Error.
class SluiceErrorsTest < Minitest::Test
  include SluiceTest::TempDir

  def test_missing_file_is_enoent_naming_the_path
    error = assert_raises(Errno::ENOENT) { Sluice::File.open(path("missing")) }
    assert_includes error.message, path("missing")
    assert_raises(Errno::ENOENT) { Sluice::MappedWriter.open(path("no/such/dir/file")) }
  end

  def test_a_file_in_place_of_a_directory_is_enotdir
    File.write(path("plain"), "x")
    assert_raises(Errno::ENOTDIR) { Sluice::File.open(path("plain/child"), "w") }
  end

  def test_a_directory_is_eisdir
    # Refused at open, or at the first read where the library lets a directory open: EISDIR either way.
    error = assert_raises(Errno::EISDIR) { Sluice::File.open(@dir) { |f| f.pread(10, 0) } }
    assert_includes error.message, @dir, "the Java message, naming the file, is kept"
  end

  def test_a_name_too_long_is_enametoolong
    # The JDK reports it with the C library's text only ("File name too long"): mapped by that text.
    error = assert_raises(Errno::ENAMETOOLONG) { Sluice::File.open(path("n" * 300), "w") }
    assert_includes error.message, "n" * 300
  end

  def test_an_existing_file_with_x_is_eexist
    File.write(path("there"), "x")
    assert_raises(Errno::EEXIST) { Sluice::File.open(path("there"), "wx") }
  end

  def test_closed_files_raise_sluice_error_an_ioerror
    f = Sluice::File.open(path("c"), "w+")
    f.close
    f.close
    assert_predicate f, :closed?
    %i[size fsync].each do |call|
      error = assert_raises(Sluice::Error) { f.public_send(call) }
      assert_kind_of IOError, error
    end
    assert_raises(Sluice::Error) { f.pwrite("x", 0) }
  end

  def test_bad_arguments_are_argument_errors
    Sluice::File.open(path("a"), "w+") do |f|
      assert_raises(ArgumentError) { f.pread(-1, 0) }
      assert_raises(ArgumentError) { f.pread(1, -1) }
      assert_raises(ArgumentError) { f.pwrite("x", -5) }
      assert_raises(ArgumentError) { f.truncate(-1) }
      assert_raises(TypeError) { f.pread(1, 0, 42) }
    end
  end

  def test_the_error_hierarchy
    assert_operator Sluice::Error, :<, IOError
    assert_operator Sluice::ZipError, :<, Sluice::Error
  end
end
