// The Maven plugin runs through app.Checks as the command line does, so its SARIF carries the fixes the command
// line's has, the plan's layout fix included (it once lacked it): PAR005's 36 heads over tp=8, fixed to tp 2, dp 8
def sarif = new File(basedir, 'target/gpulint.sarif').text
assert sarif.contains('"ruleId" : "PAR005"')
assert sarif.contains('"fixes"')
assert sarif.contains('set tp 2, pp 1, dp 8: the fastest layout gpulint plan finds')
return true
