# frozen_string_literal: true

# On the load path ahead of everything else, this file answers bioruby-maf's `require 'kyotocabinet'` with Sluice::DB:
# its index code then runs unchanged on Sluice.
require "sluice/kyotocabinet"
