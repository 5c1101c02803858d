def log = new File(basedir, 'build.log').text
assert log.contains('gpulint:check')
assert log.contains('sarifCategory')
assert log.contains('gpulint:help')
return true
