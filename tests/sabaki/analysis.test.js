// tengen through Sabaki's engine library (@sabaki/gtp), the way Sabaki drives an engine:
// commands written without waiting for answers, `lz-analyze B 50` / `kata-analyze B 50`
// stopped by the next command (Sabaki sends `protocol_version`), lines parsed the way Sabaki
// parses them. Usage: node analysis.test.js PATH_TO_TENGEN. Exits non-zero on any failure.
'use strict'
const assert = require('assert')
const {Controller} = require('@sabaki/gtp')

const engine = process.argv[2]
const size = 9
const columns = 'ABCDEFGHJKLMNOPQRST'.slice(0, size)
const onBoard = v => v === 'pass' || (columns.includes(v[0]) && +v.slice(1) >= 1 && +v.slice(1) <= size)

// Sabaki's own reading of an analysis line: `info` segments of key-value pairs, pv last.
function parseAnalysis(line) {
  return line
    .split(/\s*info\s+/)
    .slice(1)
    .map(segment => {
      let [head, pv] = segment.split(/\s+pv\s+/)
      let words = head.trim().split(/\s+/)
      let fields = {}
      for (let i = 0; i + 1 < words.length; i += 2) fields[words[i]] = words[i + 1]
      fields.pv = (pv || '').split(/\s+(?:ownership|rootInfo|pvVisits)\b/)[0].trim().split(/\s+/)
      return fields
    })
}

async function analyse(controller, command, args) {
  let lines = []
  let analysis = controller.sendCommand({name: command, args}, ({line}) => {
    if (line.startsWith('info ')) lines.push(line)
  })
  await new Promise(resolve => setTimeout(resolve, 1700))
  let stopper = controller.sendCommand({name: 'protocol_version'})
  let response = await analysis
  let version = await stopper
  assert.strictEqual(response.error, false, `${command} failed`)
  assert.strictEqual(version.content, '2', 'the stopping command is answered after the analysis')
  assert.ok(lines.length >= 3, `${command}: only ${lines.length} lines in 1.7 s`)
  return lines
}

async function main() {
  let controller = new Controller(engine, ['gtp', '--threads', '2', '--size', `${size}`])
  controller.start()
  try {
    // Sabaki's opening burst, written without waiting.
    let setup = ['boardsize 9', 'clear_board', 'komi 7.5', 'play B E5', 'play W C3'].map(text => {
      let [name, ...args] = text.split(' ')
      return controller.sendCommand({name, args})
    })
    for (let response of await Promise.all(setup)) assert.strictEqual(response.error, false)

    let lz = await analyse(controller, 'lz-analyze', ['B', '50'])
    for (let line of lz) {
      let infos = parseAnalysis(line)
      assert.ok(infos.length > 0)
      infos.forEach((info, order) => {
        assert.ok(onBoard(info.move), `vertex ${info.move}`)
        let winrate = +info.winrate
        assert.ok(Number.isInteger(winrate) && winrate >= 0 && winrate <= 10000, `winrate ${info.winrate}`)
        assert.ok(+info.visits > 0)
        assert.strictEqual(+info.order, order)
        assert.strictEqual(info.pv[0], info.move)
        assert.ok(info.pv.every(onBoard))
      })
    }

    let kata = await analyse(controller, 'kata-analyze', ['B', '50', 'ownership', 'true'])
    for (let line of kata) {
      for (let info of parseAnalysis(line)) {
        let winrate = +info.winrate
        assert.ok(winrate >= 0 && winrate <= 1, `kata winrate ${info.winrate}`)
        assert.ok(Number.isFinite(+info.scoreLead), `scoreLead ${info.scoreLead}`)
        assert.ok(onBoard(info.move))
      }
      let ownership = line.split(/\s+ownership\s+/)[1].trim().split(/\s+/).map(Number)
      assert.strictEqual(ownership.length, size * size)
      assert.ok(ownership.every(v => v >= -1 && v <= 1))
    }

    // The engine still plays normally afterwards.
    let move = await controller.sendCommand({name: 'genmove', args: ['B']})
    assert.strictEqual(move.error, false)
    assert.ok(onBoard(move.content.toUpperCase()), `genmove ${move.content}`)
    console.log(`ok: ${lz.length} lz-analyze lines, ${kata.length} kata-analyze lines, genmove ${move.content}`)
  } finally {
    await controller.stop()
  }
}

main().catch(err => {
  console.error(err)
  process.exit(1)
})
