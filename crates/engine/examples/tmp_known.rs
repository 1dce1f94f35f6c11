use faultline_engine::Source;
fn main() {
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).unwrap();
        let sources = vec![Source::new(path.clone(), text)];
        for _ in 0..3 {
            let t = std::time::Instant::now();
            let k = faultline_engine::model::known::scan(&sources);
            let a = t.elapsed();
            let t = std::time::Instant::now();
            let mut n = 0usize; let mut distinct = std::collections::HashSet::new();
            for line in sources[0].text.lines() { if line.len() >= 12 { n += 1; distinct.insert(line); } }
            let b = t.elapsed();
            let t = std::time::Instant::now();
            let mut hits = 0usize;
            for line in &distinct { if faultline_engine::ingest::known::best(line).is_some() { hits += 1; } }
            let c = t.elapsed();
            println!("{path}: scan {:?} known {} | lines>=12 {} distinct {} iterate+set {:?} | best over distinct {:?} hits {}", a, k.len(), n, distinct.len(), b, c, hits);
        }
    }
}
