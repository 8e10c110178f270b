# frozen_string_literal: true

# bioruby-maf's spec_helper starts with require 'bundler/setup', which would resolve its Gemfile against installed
# gems; here its dependencies come from the load path (the stand-ins beside this directory, rspec from the system),
# so there is nothing to set up.
