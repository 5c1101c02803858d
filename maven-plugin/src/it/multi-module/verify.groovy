def log = new File(basedir, 'build.log').text
def finding = '[ERROR] ' + new File(basedir, 'a/manifests/job.yaml').canonicalPath + ':6:7: error: tp=16 spans 2 nodes'
// a's finding is logged once, by module a (never by the parent), with its absolute path
assert log.count(finding) == 1
assert log.count('tp=16 spans 2 nodes') == 1
// the parent lints only its own file; a and b lint theirs
assert log.contains('gpulint: 0 errors, 0 warnings, 0 notes in 1 file;')
assert log.contains('gpulint: 1 error, 1 warning, 0 notes in 2 files;')
assert log.contains('gpulint: 0 errors, 0 warnings, 0 notes in 2 files;')
def parent = new File(basedir, 'target/gpulint.sarif').text
assert !parent.contains('manifests/')
// SARIF URIs are relative to the project root: here the checkout's git top level
assert new File(basedir, 'a/target/gpulint.sarif').text =~ /"uri" : "(maven-plugin\/target\/it\/multi-module\/a\/)?manifests\/job.yaml"/
assert !new File(basedir, 'b/target/gpulint.sarif').text.contains('"ruleId"')
// each module's SARIF has its own category (its artifactId), so GitHub keeps both modules' alerts
assert new File(basedir, 'a/target/gpulint.sarif').text.contains('"id" : "gpulint/a/"')
assert new File(basedir, 'b/target/gpulint.sarif').text =~ /"id" : "gpulint\/[\w-]+\/"/
return true
