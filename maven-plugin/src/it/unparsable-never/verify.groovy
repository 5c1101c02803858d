def log = new File(basedir, 'build.log').text
assert log.contains(new File(basedir, 'manifests/job.yaml').canonicalPath + ':3:1: error: YAML syntax error')
assert log.contains('this fails the build whatever failOn is')
assert log.contains('[WARNING] gpulint: -Dgpulint.sarifCategry is no property of gpulint:check and is ignored; did you mean -Dgpulint.sarifCategory?')
assert !log.contains('BUILD SUCCESS')
return true
