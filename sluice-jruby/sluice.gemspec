# frozen_string_literal: true

require_relative "lib/sluice/version"

Gem::Specification.new do |s|
  s.name = "sluice"
  s.version = Sluice::VERSION
  s.platform = "java"
  s.summary = "Fast file I/O for JRuby: positional reads into Strings, mapped appends, concurrent zip reading"
  s.description = <<~TEXT
    Sluice's JRuby binding. Sluice::File reads and writes at explicit offsets straight between the file and a
    String's own byte array; Sluice::MappedWriter appends through a memory-mapped window, past 2 GiB;
    Sluice::Zip reads zip and jar archives from many threads at once, and extracts them safely;
    Sluice::DB is an ordered key-value store with Kyoto Cabinet's Ruby API, on H2's MVStore;
    Sluice::MAF parses UCSC Multiple Alignment Format files into Ruby blocks and rows. Carries
    Sluice's Java library; needs JRuby 10 on Java 22 or newer.
  TEXT
  s.authors = ["The Sluice authors"]
  s.license = "Apache-2.0"
  # The root POM's sluice.repository, which docs/RELEASING.md checks before a release.
  s.homepage = "https://github.com/sluice-io/sluice"
  s.metadata = { "source_code_uri" => s.homepage, "changelog_uri" => "#{s.homepage}/blob/main/CHANGELOG.md" }
  s.files = Dir["lib/**/*.rb"] + %w[lib/sluice/sluice-core.jar lib/sluice/sluice-jruby.jar
                                          lib/sluice/sluice-db.jar lib/sluice/sluice-maf.jar lib/sluice/h2-mvstore.jar
                                          LICENSE NOTICE]
  s.require_paths = ["lib"]
  s.required_ruby_version = ">= 3.4"
  s.requirements << "JRuby 10.0 or newer, on Java 22 or newer"
end
