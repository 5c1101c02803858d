def log = new File(basedir, 'build.log').text
assert log.contains('gpulint: 0 errors, 0 warnings, 0 notes in 1 file')
assert !log.contains('lies outside the project')
assert !log.contains('is no property of gpulint:check')
return true
