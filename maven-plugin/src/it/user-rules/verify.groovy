def log = new File(basedir, 'build.log').text
assert log.contains("[WARNING] " + new File(basedir, "jobs/big.yaml").canonicalPath + ":3:8: warning: job 'big' asks for 4 nodes; our shared queue takes single-node jobs only. [TEAM001]")
assert log.contains('gpulint found 1 finding at or above warning')
assert new File(basedir, 'target/gpulint.sarif').text.contains('"id" : "TEAM001"')
return true
