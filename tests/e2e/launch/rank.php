<?php
// tests/e2e/launch/rank.php: prints what `gtc run` told this rank (no collectives), its
// arguments, and whether the rendezvous folder exists; with "fail=R:CODE" rank R exits CODE
// while the others sleep (and say so if nobody stops them); "kill=R" kills rank R by SIGKILL;
// "sleep" makes every rank sleep (the launcher's signal forwarding).
$rank = getenv('RANK');
$dir = getenv('GTC_DIST_DIR');
printf("rank=%s world=%s local=%s/%s dir=%s args=%s\n", $rank, getenv('WORLD_SIZE'), getenv('LOCAL_RANK'),
       getenv('LOCAL_WORLD_SIZE'), is_dir($dir) ? 'yes' : 'no', implode(',', array_slice($argv, 1)));
if (isset($argv[1]) && $argv[1] === 'dir' && $rank === '0') file_put_contents($argv[2], $dir);
foreach (array_slice($argv, 1) as $a) {
    if (preg_match('/^fail=(\d+):(\d+)$/', $a, $m) && $rank === $m[1]) {
        usleep(200000); // the others are running by now
        exit((int)$m[2]);
    }
    if (preg_match('/^kill=(\d+)$/', $a, $m) && $rank === $m[1]) {
        usleep(200000);
        posix_kill(getmypid(), 9);
    }
    if (preg_match('/^(fail|kill)=/', $a) || $a === 'sleep') {
        if ($a === 'sleep') file_put_contents(getenv('SLEEP_MARK') . ".$rank", (string)getmypid());
        sleep(30);
        echo "rank $rank was not stopped\n";
    }
}
