import NetworkCore
import Testing

final class CountingCancelable: Cancelable {
    private let count = Locked(0)
    var cancelCount: Int { count.withLock { $0 } }
    var isCancelled: Bool { cancelCount > 0 }
    func cancel() { count.withLock { $0 += 1 } }
}

@Suite("Cancelables")
struct CancelableTests {

    @Test("a bag cancels every child once, and a second cancel does nothing")
    func bagCancelsChildrenOnce() {
        let first = CountingCancelable()
        let second = CountingCancelable()
        let bag = CancelableBag([first, second])
        #expect(!bag.isCancelled)
        bag.cancel()
        bag.cancel()
        #expect(bag.isCancelled)
        #expect(first.cancelCount == 1)
        #expect(second.cancelCount == 1)
    }

    @Test("a child added to a cancelled bag is cancelled at once")
    func addToCancelledBag() {
        let bag = CancelableBag()
        bag.cancel()
        let child = CountingCancelable()
        bag += child
        #expect(child.cancelCount == 1)
    }

    @Test("a child added to a live bag is cancelled with it; nil is ignored")
    func addToLiveBag() {
        let bag = CancelableBag()
        let child = CountingCancelable()
        bag += child
        bag += nil
        #expect(child.cancelCount == 0)
        bag.cancel()
        #expect(child.cancelCount == 1)
    }

    @Test("a weak cancelable forwards while its target lives and reports cancelled once it is gone")
    func weakCancelable() {
        var target: CountingCancelable? = CountingCancelable()
        let weak = WeakCancelable(target!)
        #expect(!weak.isCancelled)
        weak.cancel()
        weak.cancel()
        #expect(target!.cancelCount == 1)
        target = nil
        #expect(weak.isCancelled)
        weak.cancel()
    }

    @Test("a dummy cancelable is never cancelled")
    func dummy() {
        let dummy = DummyCancelable()
        dummy.cancel()
        #expect(!dummy.isCancelled)
    }

    @Test("adding and cancelling concurrently never loses a child")
    func concurrentAddAndCancel() async {
        for _ in 0..<200 {
            let bag = CancelableBag()
            let children = (0..<8).map { _ in CountingCancelable() }
            await withTaskGroup(of: Void.self) { group in
                for child in children { group.addTask { bag += child } }
                group.addTask { bag.cancel() }
            }
            #expect(children.allSatisfy { $0.cancelCount == 1 })
        }
    }
}
