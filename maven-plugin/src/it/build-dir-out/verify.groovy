def log = new File(basedir, 'build.log').text
// out/classes/pod.yaml (the build folder's copy) is not linted: no SYN004 duplicate of cluster 'pod'
assert !log.contains('SYN004')
assert !log.contains('out/classes')
assert log.contains('gpulint: 0 errors, 0 warnings, 0 notes in 1 file')
assert new File(basedir, 'out/gpulint.sarif').isFile()
return true
