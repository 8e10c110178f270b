# frozen_string_literal: true

module Sluice
  # The gem's version, filled in by the build: the Maven project's with RubyGems' separator (0.1.0-SNAPSHOT is the
  # prerelease 0.1.0.SNAPSHOT).
  VERSION = "${gem.version}"
end
