def log = new File(basedir, 'build.log').text
assert log.contains("error: include '../defs' in ") && log.contains('lies outside the project')
assert !log.contains('BUILD SUCCESS')
return true
