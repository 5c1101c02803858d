def log = new File(basedir, 'build.log').text
assert log.contains('gpulint: 0 errors, 0 warnings, 0 notes in 2 files')
def sarif = new File(basedir, 'target/gpulint.sarif')
assert sarif.isFile()
assert sarif.text.contains('"results" : [ ]')
return true
