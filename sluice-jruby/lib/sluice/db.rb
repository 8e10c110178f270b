# frozen_string_literal: true

# require "sluice/db": Sluice::DB, the ordered key-value store with Kyoto Cabinet's API (lib/sluice/database.rb), which
# sluice.rb loads with the rest of Sluice.
require "sluice"
