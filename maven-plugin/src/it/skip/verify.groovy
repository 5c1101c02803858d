def log = new File(basedir, 'build.log').text
assert log.contains('gpulint: skipped')
assert !new File(basedir, 'target/gpulint.sarif').exists()
return true
