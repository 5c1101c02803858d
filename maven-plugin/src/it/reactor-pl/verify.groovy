// issue #37: `mvn -pl jobs verify` finds the cluster of the sibling module, as the full build does
def log = new File(basedir, 'build.log').text
def finding = new File(basedir, 'jobs/manifests/job.yaml').canonicalPath + ':6:7: error: tp=16 spans 2 nodes'
assert log.contains(finding) : 'the job is checked against the sibling module\'s cluster'
assert !log.contains('SYN003') && !log.contains('no linted file defines') : 'the cluster was found in both builds'
// the -pl build's report (its own file) and the full build's both have the finding, and no SYN003
def pl = new File(basedir, 'jobs/target/gpulint-pl.sarif').text
assert pl.contains('"ruleId" : "PAR002"') && !pl.contains('"ruleId" : "SYN003"') : pl
def full = new File(basedir, 'jobs/target/gpulint.sarif').text
assert full.contains('"ruleId" : "PAR002"') && !full.contains('"ruleId" : "SYN003"') : full
assert new File(basedir, 'clusters/target/gpulint.sarif').exists()
// the aggregator holds no manifest of its own: it says why it writes no report, and writes none
assert log.contains('outside its modules (each module lints its own files and writes its own report), so no report is written here')
assert !new File(basedir, 'target/gpulint.sarif').exists()
return true
